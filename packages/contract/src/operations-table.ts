import type { Operation } from './operation.ts';
import { ALL_OPERATIONS } from './operations/index.ts';

export const TABLE_START = '<!-- operations table: generated from @credit/contract, refresh with `pnpm docs:operations` -->';
export const TABLE_END = '<!-- end of operations table -->';

const whoMayCall = (op: Operation): string => {
  if (op.auth.kind !== 'bearer') return 'client id and secret';
  const userToken = op.auth.userTokenOnly ? ', user token only' : op.auth.userToken ? ', or the user’s own token' : '';
  return `\`${op.auth.scope}\`${userToken}`;
};

/**
 * Operations the SDK leaves out, each with why (the SDK's internal-operations.ts holds the list; the contract cannot
 * import the SDK, so whoever renders the guide passes it in).
 */
export type NotInSdk = Readonly<Record<string, string>>;

const whatItDoes = (op: Operation, notInSdk: NotInSdk): string => {
  const why = notInSdk[op.operationId];
  return `${op.summary}${why ? `; not in the SDK: ${why}` : ''}`.replaceAll('|', '\\|');
};

/**
 * The guide's table of every operation: the id to pass to the SDK (or that it is not in the SDK, and why), its method
 * and path, who may call, what it does.
 */
export const operationsTable = (operations: readonly Operation[] = ALL_OPERATIONS, notInSdk: NotInSdk = {}): string => {
  // By path, then method: module namespaces list their exports in an order that differs between loaders.
  const byPath = [...operations].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  const rows = byPath.map(
    (op) =>
      `| \`${op.operationId}\` | ${op.method.toUpperCase()} | \`${op.path}\` | ${whoMayCall(op)}${op.sandboxOnly ? ', sandbox only' : ''} | ${whatItDoes(op, notInSdk)} |`,
  );
  return [
    TABLE_START,
    '',
    '| Operation id | Method | Path | Scope | What it does |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    TABLE_END,
  ].join('\n');
};

/** What is wrong with a guide's table, given the guide's text: empty when it lists every operation as the contract has it. */
export const operationsTableProblems = (
  guide: string,
  operations: readonly Operation[] = ALL_OPERATIONS,
  notInSdk: NotInSdk = {},
): string[] => {
  const start = guide.indexOf(TABLE_START);
  const end = guide.indexOf(TABLE_END);
  if (start === -1 || end < start) return ['the operations table (its start and end markers) is missing'];
  const shown = guide.slice(start, end + TABLE_END.length);
  const expected = operationsTable(operations, notInSdk);
  if (shown === expected) return [];
  const shownLines = new Set(shown.split('\n'));
  const missing = operations.filter((op) => !shown.includes(`| \`${op.operationId}\` |`));
  if (missing.length) {
    return missing.map((op) => `${op.operationId} (${op.method.toUpperCase()} ${op.path}) is missing from the operations table`);
  }
  const stale = expected.split('\n').filter((line) => !shownLines.has(line));
  return stale.length
    ? stale.map((line) => `a row differs from the contract; it should read: ${line}`)
    : ['the operations table has rows the contract does not'];
};
