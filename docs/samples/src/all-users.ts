import type { CreditClient } from '@credit/sdk';

/** Every enrolled customer who is verified, page after page (`list` follows the cursors for you). */
export async function activeCustomerIds(credit: CreditClient): Promise<string[]> {
  const ids: string[] = [];
  for await (const user of credit.list('listUsers', { query: { status: 'active', limit: 100 } })) {
    ids.push(user.externalUserId);
  }
  return ids;
}
