/** The level monthly payment that repays `principal` over `months` at `aprPercent`. */
export const amortizedPayment = (principal: number, aprPercent: number, months: number): number => {
  const rate = aprPercent / 1200;
  return rate === 0 ? principal / months : (principal * rate) / (1 - (1 + rate) ** -months);
};
