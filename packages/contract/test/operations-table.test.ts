import { describe, expect, it } from 'vitest';
import { ALL_OPERATIONS } from '../src/index.ts';
import { operationsTable, operationsTableProblems } from '../src/operations-table.ts';

// The real guide, with the SDK's list of what it leaves out, is checked in packages/sdk/test/operations-guide.test.ts
// (the contract imports no SDK); here the table is the generator's own.
const notInSdk = { createAccessToken: 'the client does it' };
const guide = `# Operations\n\n${operationsTable(ALL_OPERATIONS, notInSdk)}\n`;

describe("the partner guide's operations table", () => {
  it('lists every operation of the contract, as the contract has it', () => {
    expect(operationsTableProblems(guide, ALL_OPERATIONS, notInSdk)).toEqual([]);
    for (const op of ALL_OPERATIONS)
      expect(guide).toContain(`| \`${op.operationId}\` | ${op.method.toUpperCase()} | \`${op.path}\` |`);
  });

  it('says which operations are not in the SDK, and why', () => {
    expect(guide).toContain('| Obtain an access token (OAuth 2.0 client credentials); not in the SDK: the client does it |');
    expect(guide.match(/not in the SDK/g)).toHaveLength(1);
    expect(operationsTableProblems(guide)[0]).toContain(
      'it should read: | `createAccessToken` | POST | `/oauth/token` | client id and secret | Obtain an access token (OAuth 2.0 client credentials) |',
    );
  });

  it('fails on an operation missing from the table', () => {
    const withoutConsent = guide
      .split('\n')
      .filter((line) => !line.startsWith('| `getConsent` |'))
      .join('\n');
    expect(operationsTableProblems(withoutConsent, ALL_OPERATIONS, notInSdk)).toEqual([
      'getConsent (GET /v1/users/{userId}/consent) is missing from the operations table',
    ]);
  });

  it('fails on a stale row, and on a table with rows the contract does not have', () => {
    const renamed = guide.replace('| Get the user’s consent and its history |', '| Consent |');
    expect(operationsTableProblems(renamed, ALL_OPERATIONS, notInSdk)[0]).toContain('it should read: | `getConsent` |');
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
