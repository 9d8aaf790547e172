import type { TCreditReport, TPaymentStatus, TSimulation } from '@credit/contract';

/** The 24 months up to October 2026, most recent first, as the API lists them; `grades` overrides some months. */
const history = (grades: Record<string, TPaymentStatus> = {}) =>
  Array.from({ length: 24 }, (_, back) => {
    const date = new Date(Date.UTC(2026, 9 - back, 1));
    const month = `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
    return { month, status: grades[month] ?? 'ok' };
  });

export const CARD_ID = 'acc_3f9a1c07d2b84e6a5c1d';
export const AUTO_LOAN_ID = 'acc_9b2e4d6f8a0c1e3b5d7f';
export const CLOSED_CARD_ID = 'acc_1a2b3c4d5e6f7a8b9c0d';

export const REPORT: TCreditReport = {
  userId: 'usr_1',
  bureau: 'Experian',
  reportDate: '2026-11-01',
  pulledAt: '2026-11-01T08:00:00Z',
  summary: {
    openAccounts: 2,
    totalBalance: 16_640,
    cardBalance: 1840,
    totalCreditLimit: 8000,
    utilizationPercent: 23,
    totalMonthlyPayments: 367,
    oldestAccountAgeYears: 11.6,
    averageAccountAgeYears: 6.2,
    hardInquiries24Months: 2,
    hardInquiries12Months: 1,
    latePayments: 1,
    derogatoryMarks: 0,
    onTimePaymentPercent: 98.6,
  },
  accounts: [
    {
      accountId: CARD_ID,
      type: 'credit_card',
      creditor: 'Northwind Bank',
      originalCreditor: null,
      status: 'open',
      openedOn: '2015-03-12',
      closedOn: null,
      balance: 1840,
      creditLimit: 8000,
      originalAmount: null,
      monthlyPayment: 55,
      apr: 22.9,
      termMonths: null,
      utilizationPercent: 23,
      latePayments: 1,
      paymentHistory: history({ '2026-03': '30' }),
    },
    {
      accountId: AUTO_LOAN_ID,
      type: 'auto_loan',
      creditor: 'Contoso Auto Finance',
      originalCreditor: null,
      status: 'open',
      openedOn: '2025-06-02',
      closedOn: null,
      balance: 14_800,
      creditLimit: null,
      originalAmount: 21_000,
      monthlyPayment: 312,
      apr: 11.4,
      termMonths: 72,
      utilizationPercent: null,
      latePayments: 0,
      // Nothing reported before the loan was opened.
      paymentHistory: history(
        Object.fromEntries(
          ['2024-11', '2024-12', '2025-01', '2025-02', '2025-03', '2025-04', '2025-05'].map((month) => [month, 'no_data']),
        ),
      ),
    },
    {
      accountId: CLOSED_CARD_ID,
      type: 'credit_card',
      creditor: 'Fabrikam Credit Union',
      originalCreditor: null,
      status: 'closed',
      openedOn: '2012-01-20',
      closedOn: '2024-05-31',
      balance: 0,
      creditLimit: null,
      originalAmount: null,
      monthlyPayment: null,
      apr: null,
      termMonths: null,
      utilizationPercent: null,
      latePayments: 0,
      paymentHistory: history(),
    },
  ],
  inquiries: [
    { kind: 'hard', source: 'Contoso Auto Finance', date: '2025-05-28' },
    { kind: 'soft', source: 'Northwind Bank', date: '2026-09-14' },
  ],
  publicRecords: [],
  personalInformation: {
    names: ['Ana Ruiz'],
    yearOfBirth: 1988,
    addresses: [{ street: '1••• M•••• Street', city: 'Portland', state: 'OR', zipCode: '97201', reportedOn: '2026-10-01' }],
    employers: [{ name: 'C•••••• L••', reportedOn: '2026-08-01' }],
  },
};

export const SIMULATION: TSimulation = {
  currentScore: 712,
  simulatedScore: 730,
  change: 18,
  currentRating: 'good',
  simulatedRating: 'good',
  scoreRange: { min: 300, max: 850 },
  bureau: 'Experian',
  reportDate: '2026-11-01',
  factors: [
    {
      code: 'PAYMENT_HISTORY',
      name: 'Payment history',
      before: { score: 90, impact: 'low' },
      after: { score: 92, impact: 'low' },
    },
    {
      code: 'CREDIT_UTILIZATION',
      name: 'Credit utilization',
      before: { score: 62, impact: 'medium' },
      after: { score: 85, impact: 'low' },
    },
    {
      code: 'CREDIT_AGE',
      name: 'Length of credit history',
      before: { score: 70, impact: 'medium' },
      after: { score: 70, impact: 'medium' },
    },
    { code: 'CREDIT_MIX', name: 'Credit mix', before: { score: 80, impact: 'low' }, after: { score: 80, impact: 'low' } },
    { code: 'NEW_CREDIT', name: 'New credit', before: { score: 75, impact: 'low' }, after: { score: 75, impact: 'low' } },
  ],
  disclaimer:
    'This is an estimate, not a promise: your real score depends on everything lenders report, and on when they report it. ' +
    'Nothing here was saved, and your credit file was not checked again.',
};
