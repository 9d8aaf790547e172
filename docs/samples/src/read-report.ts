import type { CreditClient } from '@credit/sdk';

/** The report's headline in one line, e.g. "6 open accounts, 23.5% of $20,000 in card credit used, 0 late payments". */
export async function describeReport(credit: CreditClient, userId: string): Promise<string> {
  const { summary, accounts } = await credit.call('getCreditReport', { params: { userId } });
  const late = accounts.flatMap((a) => a.paymentHistory).filter((month) => month.status !== 'ok' && month.status !== 'no_data');
  const limit = `$${summary.totalCreditLimit.toLocaleString('en-US')}`;
  return (
    `${summary.openAccounts} open accounts, ${summary.utilizationPercent}% of ${limit} in card credit used, ` +
    `${late.length} late payments in 24 months`
  );
}
