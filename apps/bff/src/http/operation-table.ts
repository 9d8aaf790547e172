import type { Operation } from '@credit/contract';
import type { Request, Response } from 'express';

/** A contract operation and what serves it: made by `bindRoute` (or `bindRawRoute`), dispatched by the table. */
export interface ContractRoute {
  op: Pick<Operation, 'operationId' | 'method' | 'path' | 'rateLimit' | 'auth'>;
  serve: (req: Request, res: Response) => Promise<void>;
}

export type OperationMatch =
  | { route: ContractRoute; params: Record<string, string> }
  /** The path has this operation's shape, but the segment of parameter `undecodable` is not valid percent-encoding. */
  | { route: ContractRoute; undecodable: string };

interface Entry {
  route: ContractRoute;
  /** The template's segments: a literal, or `undefined` where a path parameter sits. */
  literals: (string | undefined)[];
  /** Parameter names by segment index. */
  names: (string | undefined)[];
}

/**
 * The one dispatcher of contract operations, built once by `createApp` from the operations every module returns. The
 * rules, decided here and nowhere else (docs/decisions.md, "One dispatcher"):
 * - paths match exactly: letter case counts (`/V1/users` is no route) and a trailing slash is another path
 *   (`/v1/users/` is no route): both are `404 NOT_FOUND`, like any unknown route;
 * - `HEAD` is served wherever `GET` is, as that `GET` without its body (RFC 9110 §9.3.2): same status, headers,
 *   rate limit and authentication;
 * - `OPTIONS` on an operation's path answers `204` with `Allow` (see `allowedMethods`).
 * Lookup is one step: method, then segment count, then the few templates of that shape.
 */
export class OperationTable {
  private readonly byMethod = new Map<string, Map<number, Entry[]>>();
  readonly routes: readonly ContractRoute[];

  constructor(routes: readonly ContractRoute[]) {
    this.routes = routes;
    const seen = new Set<string>();
    for (const route of routes) {
      const { method, path, operationId } = route.op;
      const verb = method.toUpperCase();
      if (seen.has(`${verb} ${path}`)) throw new Error(`${verb} ${path} is bound twice (${operationId})`);
      seen.add(`${verb} ${path}`);
      const segments = path.split('/');
      const byLength = this.byMethod.get(verb) ?? new Map<number, Entry[]>();
      this.byMethod.set(verb, byLength);
      const entries = byLength.get(segments.length) ?? [];
      byLength.set(segments.length, entries);
      entries.push({
        route,
        literals: segments.map((segment) => (segment.startsWith('{') ? undefined : segment)),
        names: segments.map((segment) => (segment.startsWith('{') ? segment.slice(1, -1) : undefined)),
      });
      // A literal segment beats a parameter (`/v1/users/enroll` before `/v1/users/{userId}`), whatever the order bound.
      entries.sort((a, b) => literalCount(b) - literalCount(a));
    }
  }

  /** The operation `method path` names, with its decoded parameters; undefined when it names none. */
  match(method: string, path: string): OperationMatch | undefined {
    const entries = this.byMethod.get(method === 'HEAD' ? 'GET' : method)?.get(countSegments(path));
    if (!entries) return undefined;
    const segments = path.split('/');
    for (const entry of entries) {
      const match = matchEntry(entry, segments);
      if (match) return match;
    }
    return undefined;
  }

  /** The methods served at `path` (with HEAD where GET is), for `OPTIONS`; empty when no operation has that path. */
  allowedMethods(path: string): string[] {
    const allowed: string[] = [];
    for (const method of this.byMethod.keys()) {
      if (this.match(method, path)) allowed.push(method);
    }
    if (allowed.includes('GET')) allowed.push('HEAD');
    return allowed.sort();
  }
}

const literalCount = (entry: Entry) => entry.literals.filter((literal) => literal !== undefined).length;

const countSegments = (path: string): number => {
  let count = 1;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) count++;
  return count;
};

const matchEntry = (entry: Entry, segments: string[]): OperationMatch | undefined => {
  for (let i = 0; i < segments.length; i++) {
    const literal = entry.literals[i];
    if (literal !== undefined ? literal !== segments[i] : segments[i] === '') return undefined;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const name = entry.names[i];
    if (name === undefined) continue;
    try {
      params[name] = decodeURIComponent(segments[i] as string);
    } catch {
      return { route: entry.route, undecodable: name };
    }
  }
  return { route: entry.route, params };
};
