import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ALL_OPERATIONS } from '@credit/contract';
import { describe, expect, it } from 'vitest';
import { operationsTable, operationsTableProblems } from '../../contract/src/operations-table.ts';
import { INTERNAL_OPERATION_IDS, INTERNAL_OPERATION_REASONS } from '../src/internal-operations.ts';
import { SERVER_ROUTES, USER_TOKEN_ROUTES } from '../src/routes.generated.ts';

const guide = readFileSync(path.resolve(import.meta.dirname, '../../../docs/partner/operations.md'), 'utf8');
const sdkOperationIds = new Set([...Object.keys(SERVER_ROUTES), ...Object.keys(USER_TOKEN_ROUTES)]);

// The guide promises the id each operation is called by in the SDK; where the SDK has none, the row must say so.
describe('docs/partner/operations.md and the SDK', () => {
  it("lists every operation as the contract has it, with the SDK's reason beside each it leaves out", () => {
    expect(operationsTableProblems(guide, ALL_OPERATIONS, INTERNAL_OPERATION_REASONS)).toEqual([]);
  });

  it('says "not in the SDK" on exactly the rows of operations the SDK cannot call', () => {
    const rows = guide.split('\n').filter((line) => /^\| `\w+` \|/.test(line));
    expect(rows).toHaveLength(ALL_OPERATIONS.length);
    for (const row of rows) {
      const id = /^\| `(\w+)` \|/.exec(row)?.[1] as string;
      expect(row.includes('not in the SDK'), id).toBe(!sdkOperationIds.has(id));
    }
    expect(rows.filter((row) => row.includes('not in the SDK'))).toHaveLength(INTERNAL_OPERATION_IDS.length);
  });

  it('fails on a guide that offers an internal operation as callable', () => {
    expect(operationsTableProblems(operationsTable(), ALL_OPERATIONS, INTERNAL_OPERATION_REASONS)).not.toEqual([]);
  });
});
