import { validationError } from '../core/api-error.ts';

/** Whether a request carries a body: one rule for the parsers and for the operations that take none. */
export const hasBody = (req: { headers: Record<string, unknown> }): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

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
