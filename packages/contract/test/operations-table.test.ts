import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_OPERATIONS } from '../src/index.ts';
import { operationsTable, operationsTableProblems } from '../src/operations-table.ts';

const guide = readFileSync(path.resolve(import.meta.dirname, '../../../docs/partner/operations.md'), 'utf8');

describe("the partner guide's operations table", () => {
  it('lists every operation of the contract, as the contract has it', () => {
    expect(operationsTableProblems(guide)).toEqual([]);
    for (const op of ALL_OPERATIONS)
      expect(guide).toContain(`| \`${op.operationId}\` | ${op.method.toUpperCase()} | \`${op.path}\` |`);
  });

  it('fails on an operation missing from the table', () => {
    const withoutConsent = guide
      .split('\n')
      .filter((line) => !line.startsWith('| `getConsent` |'))
      .join('\n');
    expect(operationsTableProblems(withoutConsent)).toEqual([
      'getConsent (GET /v1/users/{userId}/consent) is missing from the operations table',
    ]);
  });

  it('fails on a stale row, and on a table with rows the contract does not have', () => {
    const renamed = guide.replace('| Get the user’s consent and its history |', '| Consent |');
    expect(operationsTableProblems(renamed)[0]).toContain('it should read: | `getConsent` |');
    const extra = operationsTable().replace(
      '| --- | --- | --- | --- | --- |',
      '| --- | --- | --- | --- | --- |\n| `getNothing` | GET | `/v1/nothing` | `read` | Nothing |',
    );
    expect(operationsTableProblems(extra)).toEqual(['the operations table has rows the contract does not']);
  });

  it('fails when the table is gone', () => {
    expect(operationsTableProblems('# Operations')).toEqual(['the operations table (its start and end markers) is missing']);
  });
});
