import type { ServerResponse } from 'node:http';
import type { Operation } from '@credit/contract';
import type { HttpRequest } from './api-request.ts';

/** A contract operation and what serves it: made by `bindRoute` (or `bindRawRoute`), dispatched by the table. */
export interface ContractRoute {
  op: Pick<Operation, 'operationId' | 'method' | 'path' | 'rateLimit' | 'auth'>;
  serve: (req: HttpRequest, res: ServerResponse) => Promise<void>;
}

export type OperationMatch =
  | { route: ContractRoute; params: Record<string, string> }
  /** The path has this operation's shape, but the segment of parameter `undecodable` is not valid percent-encoding. */
  | { route: ContractRoute; undecodable: string }
  /** The path names a resource the contract serves, but not with this method: `allowed` lists those it takes. */
  | { allowed: string[] };

/** One path template and the operations served at it, by method. */
interface Resource {
  /** The template's segments: a literal, or `undefined` where a path parameter sits. */
  literals: (string | undefined)[];
  /** Parameter names by segment index. */
  names: (string | undefined)[];
  byMethod: Map<string, ContractRoute>;
  /** The methods served here, with HEAD where GET is, sorted: the `Allow` header. */
  allowed: string[];
}

/**
 * The one dispatcher of contract operations, built once by `createApp` from the operations every module returns. The
 * rules, decided here and nowhere else (docs/decisions.md, "One dispatcher"):
 * - a path names one resource, the template with the most literal segments that fits it (`/v1/users/enroll` before
 *   `/v1/users/{userId}`), whatever the method; the method then picks the operation, or the answer is
 *   `405` with `Allow`;
 * - paths match exactly: letter case counts (`/V1/users` is no route) and a trailing slash is another path
 *   (`/v1/users/` is no route): both are `404 NOT_FOUND`, like any unknown route;
 * - `HEAD` is served wherever `GET` is, as that `GET` without its body (RFC 9110 §9.3.2);
 * - `OPTIONS` on a resource's path answers `204` with `Allow`.
 */
export class OperationTable {
  private readonly bySegmentCount = new Map<number, Resource[]>();
  readonly routes: readonly ContractRoute[];

  constructor(routes: readonly ContractRoute[]) {
    this.routes = routes;
    const byPath = new Map<string, Resource>();
    for (const route of routes) {
      const { method, path, operationId } = route.op;
      const verb = method.toUpperCase();
      let resource = byPath.get(path);
      if (!resource) {
        const segments = path.split('/');
        resource = {
          literals: segments.map((segment) => (segment.startsWith('{') ? undefined : segment)),
          names: segments.map((segment) => (segment.startsWith('{') ? segment.slice(1, -1) : undefined)),
          byMethod: new Map(),
          allowed: [],
        };
        byPath.set(path, resource);
        const sameLength = this.bySegmentCount.get(segments.length) ?? [];
        this.bySegmentCount.set(segments.length, sameLength);
        sameLength.push(resource);
        sameLength.sort((a, b) => literalCount(b) - literalCount(a));
      }
      if (resource.byMethod.has(verb)) throw new Error(`${verb} ${path} is bound twice (${operationId})`);
      resource.byMethod.set(verb, route);
      const allowed = [...resource.byMethod.keys()];
      if (allowed.includes('GET')) allowed.push('HEAD');
      resource.allowed = allowed.sort();
    }
  }

  /**
   * The operation `method path` names, with its decoded parameters; `{ allowed }` when the path names a resource that
   * does not take this method (OPTIONS included); undefined when it names no resource.
   */
  match(method: string, path: string): OperationMatch | undefined {
    const resource = this.resourceAt(path);
    if (!resource) return undefined;
    const route = resource.byMethod.get(method === 'HEAD' ? 'GET' : method);
    if (!route) return { allowed: resource.allowed };
    const segments = path.split('/');
    const params: Record<string, string> = {};
    for (let i = 0; i < segments.length; i++) {
      const name = resource.names[i];
      if (name === undefined) continue;
      try {
        params[name] = decodeURIComponent(segments[i] as string);
      } catch {
        return { route, undecodable: name };
      }
    }
    return { route, params };
  }

  private resourceAt(path: string): Resource | undefined {
    const candidates = this.bySegmentCount.get(countSegments(path));
    if (!candidates) return undefined;
    const segments = path.split('/');
    return candidates.find((resource) => fits(resource, segments));
  }
}

const literalCount = (resource: Resource) => resource.literals.filter((literal) => literal !== undefined).length;

const countSegments = (path: string): number => {
  let count = 1;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) count++;
  return count;
};

const fits = (resource: Resource, segments: string[]): boolean => {
  for (let i = 0; i < segments.length; i++) {
    const literal = resource.literals[i];
    if (literal !== undefined ? literal !== segments[i] : segments[i] === '') return false;
  }
  return true;
};
