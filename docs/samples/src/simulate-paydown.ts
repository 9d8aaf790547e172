import type { CreditClient } from '@credit/sdk';

/**
 * "If I pay my fullest card down by half": the card comes from the report, the estimate from the simulator, which
 * stores nothing and does not pull the credit file again. Returns undefined when no card carries a balance.
 */
export async function payDownFullestCard(credit: CreditClient, userId: string) {
  const report = await credit.call('getCreditReport', { params: { userId } });
  const [card] = report.accounts
    .filter((a) => a.type === 'credit_card' && a.status === 'open' && a.balance > 0)
    .sort((a, b) => (b.utilizationPercent ?? 0) - (a.utilizationPercent ?? 0));
  if (!card) return undefined;
  const amount = Math.ceil(card.balance / 2);
  const simulation = await credit.call('simulateCreditScore', {
    params: { userId },
    body: { actions: [{ type: 'pay_down_balance', accountId: card.accountId, amount }] },
  });
  const sign = simulation.change >= 0 ? '+' : '';
  return {
    accountId: card.accountId,
    amount,
    headline: `Paying $${amount.toLocaleString('en-US')} off your ${card.creditor} card: ${simulation.currentScore} → ${simulation.simulatedScore} (${sign}${simulation.change})`,
    disclaimer: simulation.disclaimer,
  };
}
