import type { OfferBody } from './catalogue.ts';

/** The application host of a sandbox bank: `.example` never answers, so the sandbox serves its landing page instead. */
const hostOf = (bank: string) =>
  `apply.${
    bank
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'bank'
  }.example`;

/**
 * The catalogue a new sandbox client starts with, under its own name: the cards and loans a mid-sized bank offers,
 * with rules and tiers that split the sandbox's files so a partner sees customers who qualify and who do not.
 */
export const sampleCatalogue = (bank: string): OfferBody[] => {
  const apply = (path: string) => `https://${hostOf(bank)}/${path}?click={clickId}&customer={externalUserId}`;
  return [
    {
      type: 'credit_card',
      provider: bank,
      name: `${bank} Cash Back Card`,
      description: 'Unlimited 1.5% cash back on every purchase, 3% at grocery stores, and no annual fee.',
      aprType: 'variable',
      tiers: [
        { minScore: 680, maxScore: 739, apr: 24.99, creditLimit: { min: 1000, max: 5000 } },
        { minScore: 740, maxScore: 850, apr: 19.99, creditLimit: { min: 5000, max: 15000 } },
      ],
      rules: { minScore: 680, maxUtilization: 50, noDelinquencyMonths: 12 },
      costs: { annualFee: 0 },
      termMonths: null,
      signupBonus: { amount: 200, requirement: 'Spend $500 in the first 3 months' },
      applicationUrl: apply('cards/cash-back'),
    },
    {
      type: 'credit_card',
      provider: bank,
      name: `${bank} Balance Transfer Card`,
      description: '0% intro APR on balance transfers for 15 months (3% transfer fee), then the standard variable APR.',
      aprType: 'variable',
      tiers: [
        { minScore: 700, maxScore: 759, apr: 22.99, creditLimit: { min: 2000, max: 10000 } },
        { minScore: 760, maxScore: 850, apr: 18.99, creditLimit: { min: 5000, max: 20000 } },
      ],
      rules: { minScore: 700, refinance: { accountKinds: ['credit_card'], minBalance: 500 } },
      costs: { annualFee: 0, balanceTransferFeePercent: 3, introApr: { apr: 0, months: 15 } },
      termMonths: null,
      signupBonus: null,
      applicationUrl: apply('cards/balance-transfer'),
    },
    {
      type: 'credit_card',
      provider: bank,
      name: `${bank} Secured Builder Card`,
      description: 'A secured card to build or rebuild credit: your deposit sets the line, reported to all three bureaus.',
      aprType: 'variable',
      tiers: [{ minScore: 300, maxScore: 850, apr: 21.99, creditLimit: { min: 300, max: 2500 } }],
      rules: {},
      costs: { annualFee: 0 },
      termMonths: null,
      signupBonus: null,
      applicationUrl: apply('cards/secured'),
    },
    {
      type: 'loan',
      provider: bank,
      name: `${bank} Debt Consolidation Loan`,
      description: 'One fixed monthly payment for your card and loan balances; we can pay your other lenders directly.',
      aprType: 'fixed',
      tiers: [
        { minScore: 660, maxScore: 699, apr: 17.99, creditLimit: { min: 2000, max: 20000 } },
        { minScore: 700, maxScore: 759, apr: 12.99, creditLimit: { min: 2000, max: 35000 } },
        { minScore: 760, maxScore: 850, apr: 8.99, creditLimit: { min: 2000, max: 40000 } },
      ],
      rules: {
        minScore: 660,
        noDelinquencyMonths: 12,
        refinance: { accountKinds: ['credit_card', 'personal_loan'], minBalance: 2000, minAprAbove: 2 },
      },
      costs: { annualFee: 0, originationFeePercent: 1 },
      termMonths: 60,
      signupBonus: null,
      applicationUrl: apply('loans/consolidation'),
    },
    {
      type: 'loan',
      provider: bank,
      name: `${bank} Auto Refinance`,
      description: 'Move your car loan to us for a lower rate; no payments for the first 60 days.',
      aprType: 'fixed',
      tiers: [
        { minScore: 640, maxScore: 699, apr: 9.49, creditLimit: { min: 5000, max: 50000 } },
        { minScore: 700, maxScore: 759, apr: 6.99, creditLimit: { min: 5000, max: 75000 } },
        { minScore: 760, maxScore: 850, apr: 5.49, creditLimit: { min: 5000, max: 75000 } },
      ],
      rules: { minScore: 640, refinance: { accountKinds: ['auto_loan'], minBalance: 5000, minAprAbove: 0.5 } },
      costs: { annualFee: 0 },
      termMonths: 60,
      signupBonus: null,
      applicationUrl: apply('loans/auto-refinance'),
    },
    {
      type: 'mortgage',
      provider: bank,
      name: `${bank} 30-Year Fixed Refinance`,
      description: 'Refinance your home at a fixed rate for 30 years.',
      aprType: 'fixed',
      tiers: [
        { minScore: 680, maxScore: 739, apr: 6.99, creditLimit: { min: 50000, max: 806500 } },
        { minScore: 740, maxScore: 850, apr: 6.49, creditLimit: { min: 50000, max: 806500 } },
      ],
      rules: {
        minScore: 680,
        minFileAgeMonths: 24,
        refinance: { accountKinds: ['mortgage'], minBalance: 50000, minAprAbove: 0.25 },
      },
      costs: { annualFee: 0, originationFeePercent: 1 },
      termMonths: 360,
      signupBonus: null,
      applicationUrl: apply('mortgages/30-year-refinance'),
    },
    {
      type: 'mortgage',
      provider: bank,
      name: `${bank} 15-Year Fixed Refinance`,
      description: 'Pay your home off sooner: a 15-year fixed rate, with less interest over the loan than a 30-year one.',
      aprType: 'fixed',
      tiers: [
        { minScore: 700, maxScore: 759, apr: 6.25, creditLimit: { min: 50000, max: 806500 } },
        { minScore: 760, maxScore: 850, apr: 5.99, creditLimit: { min: 50000, max: 806500 } },
      ],
      rules: { minScore: 700, refinance: { accountKinds: ['mortgage'], minBalance: 50000 } },
      costs: { annualFee: 0, originationFeePercent: 1 },
      termMonths: 180,
      signupBonus: null,
      applicationUrl: apply('mortgages/15-year-refinance'),
    },
    {
      type: 'loan',
      provider: bank,
      name: `${bank} Student Loan Refinance`,
      description: 'Combine federal and private student loans into one fixed-rate loan over 10 years.',
      aprType: 'fixed',
      tiers: [
        { minScore: 680, maxScore: 739, apr: 7.49, creditLimit: { min: 5000, max: 150000 } },
        { minScore: 740, maxScore: 850, apr: 5.49, creditLimit: { min: 5000, max: 150000 } },
      ],
      rules: { minScore: 680, refinance: { accountKinds: ['student_loan'], minBalance: 5000, minAprAbove: 0.5 } },
      costs: { annualFee: 0 },
      termMonths: 120,
      signupBonus: null,
      applicationUrl: apply('loans/student-refinance'),
    },
  ];
};
