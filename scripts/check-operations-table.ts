// The partner guide's table of operation ids (docs/partner/operations.md) is the contract's, row for row: fails on
// `pnpm lint` when an operation is missing or a row is stale; `--write` refreshes the table.
// Run: pnpm exec tsx scripts/check-operations-table.ts [--write]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { operationsTable, operationsTableProblems, TABLE_END, TABLE_START } from '../packages/contract/src/operations-table.ts';

const guide = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/partner/operations.md');
const text = readFileSync(guide, 'utf8');
if (process.argv.includes('--write')) {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  const next =
    start === -1 || end < start
      ? `${text.trimEnd()}\n\n${operationsTable()}\n`
      : text.slice(0, start) + operationsTable() + text.slice(end + TABLE_END.length);
  writeFileSync(guide, next);
} else {
  const problems = operationsTableProblems(text);
  if (problems.length) {
    console.error(`docs/partner/operations.md:\n${problems.map((p) => `  - ${p}`).join('\n')}\nRun: pnpm docs:operations`);
    process.exit(1);
  }
}
