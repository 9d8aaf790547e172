/** The level monthly payment that repays `principal` over `months` at `aprPercent`. */
export const amortizedPayment = (principal: number, aprPercent: number, months: number): number => {
  const rate = aprPercent / 1200;
  return rate === 0 ? principal / months : (principal * rate) / (1 - (1 + rate) ** -months);
};

/** What is still owed on `principal` after `paid` of its `months` level payments at `aprPercent` (0 once all are paid). */
export const scheduledBalance = (principal: number, aprPercent: number, months: number, paid: number): number => {
  if (paid <= 0) return principal;
  if (paid >= months) return 0;
  const rate = aprPercent / 1200;
  if (rate === 0) return (principal * (months - paid)) / months;
  const growth = (1 + rate) ** months;
  return (principal * (growth - (1 + rate) ** paid)) / (growth - 1);
};

/**
 * The monthly payments a loan opened on `openedOn` has made by `day` (both YYYY-MM-DD): one falls due each month on
 * the opening day, or the 28th when that is later, so every month has one and the last falls on the payoff day.
 */
export const paymentsMadeBy = (openedOn: string, day: string): number => {
  const dueDay = Math.min(28, Number(openedOn.slice(8, 10)));
  const months =
    (Number(day.slice(0, 4)) - Number(openedOn.slice(0, 4))) * 12 + Number(day.slice(5, 7)) - Number(openedOn.slice(5, 7));
  return Math.max(0, months - (Number(day.slice(8, 10)) < dueDay ? 1 : 0));
};
