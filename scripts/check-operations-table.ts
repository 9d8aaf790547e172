// The partner guide's table of operation ids (docs/partner/operations.md) is the contract's, row for row, and says
// which operations the SDK leaves out and why: fails on `pnpm lint` when an operation is missing or a row is stale;
// `--write` refreshes the table.
// Run: pnpm exec tsx scripts/check-operations-table.ts [--write]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_OPERATIONS } from '../packages/contract/src/index.ts';
import { operationsTable, operationsTableProblems, TABLE_END, TABLE_START } from '../packages/contract/src/operations-table.ts';
import { INTERNAL_OPERATION_REASONS } from '../packages/sdk/src/internal-operations.ts';

const guide = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/partner/operations.md');
const text = readFileSync(guide, 'utf8');
if (process.argv.includes('--write')) {
  const table = operationsTable(ALL_OPERATIONS, INTERNAL_OPERATION_REASONS);
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  const next =
    start === -1 || end < start
      ? `${text.trimEnd()}\n\n${table}\n`
      : text.slice(0, start) + table + text.slice(end + TABLE_END.length);
  writeFileSync(guide, next);
} else {
  const problems = operationsTableProblems(text, ALL_OPERATIONS, INTERNAL_OPERATION_REASONS);
  if (problems.length) {
    console.error(`docs/partner/operations.md:\n${problems.map((p) => `  - ${p}`).join('\n')}\nRun: pnpm docs:operations`);
    process.exit(1);
  }
}
