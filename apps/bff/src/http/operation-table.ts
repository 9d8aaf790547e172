import type { NextFunction, Request, RequestHandler, Response } from 'express';

type Handler = (req: Request, res: Response) => Promise<void>;

interface Entry {
  /** The template's segments: a literal, or `undefined` where a path parameter sits. */
  literals: (string | undefined)[];
  /** Parameter names by segment index. */
  names: (string | undefined)[];
  handler: Handler;
}

/**
 * The contract's operations, looked up in one step: method, then segment count, then the few templates of that
 * shape. Express's router would walk every mounted router and test each route's regular expression in turn; for the
 * API's hot reads that walk cost more than the rest of the request. Only exact matches are served here; anything
 * else (another case, a trailing slash, a segment that is not valid percent-encoding) falls through to the Express
 * routes `bindRoute` also registered, so behaviour at the edges is Express's, unchanged.
 */
export class OperationTable {
  private readonly byMethod = new Map<string, Map<number, Map<string, Entry>>>();

  add(method: string, template: string, handler: Handler): void {
    const segments = template.split('/');
    const entry: Entry = {
      literals: segments.map((segment) => (segment.startsWith('{') ? undefined : segment)),
      names: segments.map((segment) => (segment.startsWith('{') ? segment.slice(1, -1) : undefined)),
      handler,
    };
    const verb = method.toUpperCase();
    const byLength = this.byMethod.get(verb) ?? new Map<number, Map<string, Entry>>();
    this.byMethod.set(verb, byLength);
    const entries = byLength.get(segments.length) ?? new Map<string, Entry>();
    byLength.set(segments.length, entries);
    // The same app built twice over one context registers each operation twice: the latest wins.
    entries.set(template, entry);
  }

  /** The handler and decoded parameters for an exact match, or undefined. */
  match(method: string, path: string): { handler: Handler; params: Record<string, string> } | undefined {
    const entries = this.byMethod.get(method)?.get(countSegments(path));
    if (!entries) return undefined;
    const segments = path.split('/');
    for (const entry of entries.values()) {
      const params = paramsIfMatches(entry, segments);
      if (params) return { handler: entry.handler, params };
    }
    return undefined;
  }

  /** Middleware serving exact matches; everything else goes on to the Express routes. */
  dispatcher(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      const found = this.match(req.method, req.path);
      if (!found) return next();
      req.params = found.params;
      found.handler(req, res).catch(next);
    };
  }
}

const countSegments = (path: string): number => {
  let count = 1;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) count++;
  return count;
};

const paramsIfMatches = (entry: Entry, segments: string[]): Record<string, string> | undefined => {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const literal = entry.literals[i];
    if (literal !== undefined) {
      if (literal !== segment) return undefined;
      continue;
    }
    if (segment === '') return undefined;
    try {
      params[entry.names[i] as string] = decodeURIComponent(segment);
    } catch {
      // Malformed percent-encoding: Express's router raises it, and the app answers it, as before.
      return undefined;
    }
  }
  return params;
};

const tables = new WeakMap<object, OperationTable>();

/** The table of one app's context (bindRoute fills it, createApp mounts its dispatcher). */
export const operationTableOf = (ctx: object): OperationTable => {
  const table = tables.get(ctx) ?? new OperationTable();
  tables.set(ctx, table);
  return table;
};
