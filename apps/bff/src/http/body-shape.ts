import type { IncomingMessage } from 'node:http';
import { type ErrorDetail, validationError } from '../core/api-error.ts';
import { MAX_ERROR_DETAILS } from '../core/zod-details.ts';

/**
 * Whether a request carries a body: announced (a length above zero, or chunks), and not found empty once read
 * (`emptyBody`, set by the body step for a body no parser takes). One rule for the parsers and the operations.
 */
export const hasBody = (req: { headers: Record<string, unknown>; emptyBody?: boolean | undefined }): boolean =>
  !req.emptyBody && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);

/** The most of a body no parser takes that is read to see whether it says nothing; anything longer says something. */
export const EMPTY_BODY_PROBE_BYTES = 64;

/**
 * Whether a body no parser takes (no Content-Type, `text/plain`, …) says nothing: no byte at all (the zero-byte chunked
 * body Node's `http.request` sends for a POST without one), or only `{}` and whitespace (`fetch` with
 * `JSON.stringify({})` and no Content-Type). Such a body is refused unless it says nothing, so its bytes are read at most
 * to EMPTY_BODY_PROBE_BYTES and the rest drained, never kept.
 */
export const arrivesEmpty = (stream: IncomingMessage): Promise<boolean> =>
  new Promise((resolve) => {
    if (stream.readableEnded) return resolve(true);
    const chunks: Buffer[] = [];
    let length = 0;
    const done = (empty: boolean) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      resolve(empty);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length <= EMPTY_BODY_PROBE_BYTES) return;
      done(false);
      stream.resume(); // the rest is drained, never read
    };
    const onEnd = () => done(saysNothing(Buffer.concat(chunks).toString('latin1')));
    const onError = () => done(false);
    stream.on('data', onData).once('end', onEnd).once('error', onError);
  });

const saysNothing = (text: string) => /^\s*(\{\s*\})?\s*$/.test(text);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A request sends no parameters in its body: none came, it said nothing (above), or it parsed to an object without
 * fields: `{}`, an empty form, or `curl -d '{}'`, which sends `{}` as a form (one field named `{}`, without a value).
 * All mean the same on every operation, so none of them is refused where another is accepted.
 */
export const sendsNoBody = (req: {
  headers: Record<string, unknown>;
  emptyBody?: boolean | undefined;
  body: unknown;
  is(type: string): string | false | null;
}): boolean => {
  if (!hasBody(req)) return true;
  if (!isPlainObject(req.body)) return false;
  const names = Object.keys(req.body);
  if (names.length === 0) return true;
  return (
    names.length === 1 && saysNothing(names[0] as string) && req.body[names[0] as string] === '' && Boolean(req.is('urlencoded'))
  );
};

const NO_PARAMETERS = 'this operation takes no parameters: send no body, or {}';

/**
 * What an operation that takes no body answers to one with content: each field named (at most MAX_ERROR_DETAILS), or
 * the body as a whole when it is not an object (a list, or bytes of a type no parser reads).
 */
export const noParameterProblems = (body: unknown): ErrorDetail[] => {
  if (!isPlainObject(body)) return [{ field: 'body', message: NO_PARAMETERS }];
  const names = Object.keys(body);
  const details = names.slice(0, MAX_ERROR_DETAILS).map((name) => ({
    field: name.length > 128 ? `${name.slice(0, 127)}…` : name,
    message: `is not a parameter: ${NO_PARAMETERS}`,
  }));
  if (names.length > MAX_ERROR_DETAILS) {
    details.push({
      field: 'body',
      message: `and ${names.length - MAX_ERROR_DETAILS} more fields (the first ${MAX_ERROR_DETAILS} are listed)`,
    });
  }
  return details;
};

/**
 * No contract object has more fields; lists are ten times the longest any operation takes (a batch takes 1,000 users),
 * so that operation's own rule, with its own words, answers a list just over its bound.
 */
export const MAX_BODY_OBJECT_FIELDS = 100;
export const MAX_BODY_ARRAY_ITEMS = 10_000;
/** Values in one body: a full batch enrolment is about 20,000. */
export const MAX_BODY_VALUES = 50_000;

/**
 * A parsed JSON body too large in shape to be worth validating: an object with more fields than any operation takes,
 * a list longer than any, or too many values overall. Checked before the schema, in one pass that stops at the first
 * excess, so a small compressed body of 100,000 unknown fields costs a walk, not 100,000 validation problems.
 */
interface Node {
  value: unknown;
  key?: string;
  parent?: Node;
}

const MAX_PATH_LENGTH = 128;

/**
 * A field path as validation errors name them (`users.3.address`), at most 128 characters: a path through 40,000
 * nested arrays keeps its last names, the ones that say where.
 */
const pathOf = (node: Node): string => {
  const names: string[] = [];
  let length = 0;
  for (let at: Node | undefined = node; at?.key !== undefined; at = at.parent) {
    const name = at.key.slice(0, 64);
    if (length + name.length + 1 > MAX_PATH_LENGTH) {
      names.unshift('…');
      break;
    }
    names.unshift(name);
    length += name.length + 1;
  }
  return names.length > 0 ? names.join('.') : 'body';
};

export const bodyShapeProblem = (body: unknown) => {
  let values = 0;
  const pending: Node[] = [{ value: body }];
  while (pending.length > 0) {
    const node = pending.pop() as Node;
    values += 1;
    if (values > MAX_BODY_VALUES) return validationError([{ field: 'body', message: `has more than ${MAX_BODY_VALUES} values` }]);
    const { value } = node;
    if (Array.isArray(value)) {
      if (value.length > MAX_BODY_ARRAY_ITEMS) {
        return validationError([{ field: pathOf(node), message: `has more than ${MAX_BODY_ARRAY_ITEMS} items` }]);
      }
      for (let i = 0; i < value.length; i++) pending.push({ value: value[i], key: String(i), parent: node });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      if (keys.length > MAX_BODY_OBJECT_FIELDS) {
        return validationError([{ field: pathOf(node), message: `has more than ${MAX_BODY_OBJECT_FIELDS} fields` }]);
      }
      for (const key of keys) pending.push({ value: (value as Record<string, unknown>)[key], key, parent: node });
    }
  }
  return undefined;
};
