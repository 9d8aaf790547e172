import { prefixedId, ZDate, ZTimestamp, ZUserId } from '../common.ts';
import { z } from '../zod.ts';
import { SCORE_MAX, SCORE_MIN, ZCreditBureau, ZCreditRating, ZFactorCode, ZFactorImpact, ZScoreValue } from './credit.ts';

export const ZAccountId = prefixedId('acc', 'acc_3f9a1c07d2b84e6a5c1d');

const usd = z.number().min(0);
const usdOrNull = z.number().min(0).nullable();

export const REPORT_ACCOUNT_TYPES = [
  'credit_card',
  'auto_loan',
  'mortgage',
  'student_loan',
  'personal_loan',
  'collection',
] as const;
export type TReportAccountType = (typeof REPORT_ACCOUNT_TYPES)[number];

export const REPORT_ACCOUNT_STATUSES = ['open', 'closed', 'paid_off', 'charged_off', 'in_collection', 'paid_collection'] as const;
export type TReportAccountStatus = (typeof REPORT_ACCOUNT_STATUSES)[number];

/** One month of an account's payment record, as bureaus grade it (Metro 2): on time, days late, charged off, or not reported. */
export const PAYMENT_STATUSES = ['ok', '30', '60', '90', '120', 'charge_off', 'no_data'] as const;
export type TPaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** How many months of payment history each account shows. */
export const PAYMENT_HISTORY_MONTHS = 24;

export const ZPaymentHistoryMonth = z
  .object({
    month: z.string().meta({ description: 'Calendar month, YYYY-MM.', example: '2026-10' }),
    status: z.enum(PAYMENT_STATUSES).meta({
      description:
        '`ok` paid as agreed; `30`–`120` that many days late; `charge_off` written off by the lender; `no_data` nothing ' +
        'reported that month (before the account opened, or after it closed).',
      example: 'ok',
    }),
  })
  .meta({ id: 'PaymentHistoryMonth' });

export const ZCreditReportAccount = z
  .object({
    accountId: ZAccountId.meta({
      description: 'Stable for this user and account across pulls; what `POST …/credit-score/simulations` actions name.',
    }),
    type: z.enum(REPORT_ACCOUNT_TYPES).meta({ example: 'credit_card' }),
    creditor: z
      .string()
      .meta({ description: 'The lender, or the collection agency for a collection.', example: 'Northwind Bank' }),
    originalCreditor: z
      .string()
      .nullable()
      .meta({ description: 'Collections: who the debt was first owed to. Null otherwise.', example: null }),
    status: z.enum(REPORT_ACCOUNT_STATUSES).meta({ example: 'open' }),
    openedOn: ZDate,
    closedOn: ZDate.nullable().meta({ description: 'When the account closed or was paid off; null while open.' }),
    balance: usd.meta({ description: 'Balance owed as last reported, USD.', example: 1840 }),
    creditLimit: usdOrNull.meta({ description: 'Credit cards: the credit line. Null for loans and collections.', example: 8000 }),
    originalAmount: usdOrNull.meta({
      description: 'Loans: the amount borrowed; collections: the amount placed. Null for cards.',
      example: null,
    }),
    monthlyPayment: usdOrNull.meta({
      description: 'Scheduled monthly payment (cards: the minimum due). Null when nothing is due or none is reported.',
      example: 55,
    }),
    apr: z
      .number()
      .min(0)
      .nullable()
      .meta({ description: 'Annual percentage rate, in percent, where the lender reports one; else null.', example: 22.9 }),
    termMonths: z
      .number()
      .int()
      .min(1)
      .nullable()
      .meta({ description: 'Loans: the length of the loan in months. Null for cards and collections.', example: null }),
    utilizationPercent: z
      .number()
      .min(0)
      .nullable()
      .meta({ description: 'Open cards: balance ÷ credit line, in percent. Null otherwise.', example: 23 }),
    latePayments: z.number().int().min(0).meta({
      description: 'Late payments the lender reported over the account’s life (the grid shows the last 24 months).',
      example: 0,
    }),
    paymentHistory: z
      .array(ZPaymentHistoryMonth)
      .meta({ description: `The last ${PAYMENT_HISTORY_MONTHS} months, most recent first.` }),
  })
  .meta({ id: 'CreditReportAccount' });
export type TCreditReportAccount = z.infer<typeof ZCreditReportAccount>;

export const ZCreditReportInquiry = z
  .object({
    kind: z.enum(['hard', 'soft']).meta({
      description: '`hard`: an application for credit, which can lower the score for a year; `soft`: a check that cannot.',
      example: 'hard',
    }),
    source: z.string().meta({ example: 'Contoso Auto Finance' }),
    date: ZDate,
  })
  .meta({ id: 'CreditReportInquiry' });
export type TCreditReportInquiry = z.infer<typeof ZCreditReportInquiry>;

export const PUBLIC_RECORD_TYPES = ['bankruptcy_chapter_7', 'bankruptcy_chapter_13'] as const;
export const PUBLIC_RECORD_STATUSES = ['filed', 'discharged', 'dismissed'] as const;

export const ZCreditReportPublicRecord = z
  .object({
    type: z.enum(PUBLIC_RECORD_TYPES).meta({
      description: 'US credit files keep bankruptcies only (civil judgments and tax liens left them in 2017–2018).',
      example: 'bankruptcy_chapter_7',
    }),
    status: z.enum(PUBLIC_RECORD_STATUSES).meta({ example: 'discharged' }),
    filedOn: ZDate,
    resolvedOn: ZDate.nullable().meta({ description: 'When it was discharged or dismissed; null while open.' }),
    court: z.string().meta({ example: 'U.S. Bankruptcy Court, District of Oregon' }),
  })
  .meta({ id: 'CreditReportPublicRecord' });
export type TCreditReportPublicRecord = z.infer<typeof ZCreditReportPublicRecord>;

export const ZCreditReportPersonalInformation = z
  .object({
    names: z.array(z.string()).meta({ description: 'Names the bureau has for the person, as reported.', example: ['Ana Ruiz'] }),
    yearOfBirth: z.number().int().nullable().meta({ example: 1988 }),
    addresses: z
      .array(
        z.object({
          street: z.string().meta({
            description: 'Masked as a bank masks it: the first digit of the number and the first letter of each word.',
            example: '1••• M•••• Street',
          }),
          city: z.string(),
          state: z.string(),
          zipCode: z.string(),
          reportedOn: ZDate,
        }),
      )
      .meta({ description: 'Every address reported for the person, most recent first.' }),
    employers: z
      .array(
        z.object({
          name: z.string().meta({ description: 'Masked: the first letter of each word.', example: 'C•••••• L••' }),
          reportedOn: ZDate,
        }),
      )
      .meta({ description: 'Employers reported for the person, most recent first.' }),
  })
  .meta({ id: 'CreditReportPersonalInformation' });

export const ZCreditReportSummary = z
  .object({
    openAccounts: z.number().int().min(0).meta({ example: 5 }),
    totalBalance: usd.meta({
      description: 'Balances still owed on every account, open or closed, collections excluded, USD.',
      example: 28450,
    }),
    cardBalance: usd.meta({
      description: 'Balances of every card, closed ones included, USD: the utilization factor’s `totalBalance`.',
      example: 4700,
    }),
    totalCreditLimit: usd.meta({ description: 'Credit lines of the open cards, USD.', example: 20000 }),
    utilizationPercent: z.number().min(0).meta({ description: 'The CREDIT_UTILIZATION factor’s figure.', example: 23.5 }),
    totalMonthlyPayments: usd.meta({ description: 'Sum of the open accounts’ monthly payments, USD.', example: 612 }),
    oldestAccountAgeYears: usd.meta({ description: 'The CREDIT_AGE factor’s figure.', example: 14.2 }),
    averageAccountAgeYears: usd.meta({ description: 'The CREDIT_AGE factor’s figure.', example: 6.4 }),
    hardInquiries24Months: z.number().int().min(0).meta({ example: 2 }),
    hardInquiries12Months: z.number().int().min(0).meta({ description: 'The NEW_CREDIT factor’s figure.', example: 1 }),
    latePayments: z.number().int().min(0).meta({ description: 'Late payments over every account’s life.', example: 0 }),
    derogatoryMarks: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Collections, charged-off accounts and public records.', example: 0 }),
    onTimePaymentPercent: z.number().min(0).max(100).meta({ description: 'The PAYMENT_HISTORY factor’s figure.', example: 99.1 }),
  })
  .meta({ id: 'CreditReportSummary' });
export type TCreditReportSummary = z.infer<typeof ZCreditReportSummary>;

export const ZCreditReport = z
  .object({
    userId: ZUserId,
    bureau: ZCreditBureau,
    reportDate: ZDate.meta({ description: 'The day of the pull the report comes from (the file on record).' }),
    pulledAt: ZTimestamp.meta({ description: 'When that pull was made. Reading the report never pulls again.' }),
    summary: ZCreditReportSummary,
    accounts: z.array(ZCreditReportAccount).meta({ description: 'Open accounts first, then closed; newest first within each.' }),
    inquiries: z.array(ZCreditReportInquiry).meta({ description: 'Inquiries of the last 24 months, most recent first.' }),
    publicRecords: z.array(ZCreditReportPublicRecord),
    personalInformation: ZCreditReportPersonalInformation,
  })
  .meta({ id: 'CreditReport' });
export type TCreditReport = z.infer<typeof ZCreditReport>;

// ---- Score simulator -------------------------------------------------------------------------------------------

const MAX_AMOUNT = 10_000_000;
const positiveAmount = (example: number) =>
  z
    .number('must be a number')
    .positive('must be more than 0')
    .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`)
    .meta({ description: 'USD.', example });

export const LOAN_TYPES = ['auto_loan', 'personal_loan', 'student_loan', 'mortgage'] as const;
export const MAX_SIMULATION_ACTIONS = 10;
export const MAX_SIMULATED_MONTHS = 24;

export const ZSimulationAction = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('pay_down_balance'), accountId: ZAccountId, amount: positiveAmount(2000) }).meta({
      id: 'PayDownBalanceAction',
      description:
        'Pay an account’s balance down by `amount` (at most its balance). A closed card’s balance still counts toward utilization, so a closed account with a balance can be paid down too.',
    }),
    z
      .strictObject({
        type: z.literal('pay_on_time'),
        months: z
          .number('must be a number')
          .int('must be a whole number')
          .min(1, `must be between 1 and ${MAX_SIMULATED_MONTHS}`)
          .max(MAX_SIMULATED_MONTHS, `must be between 1 and ${MAX_SIMULATED_MONTHS}`)
          .meta({ example: 6 }),
      })
      .meta({
        id: 'PayOnTimeAction',
        description: `Pay every open account on time for \`months\` months (at most ${MAX_SIMULATED_MONTHS} in all across the actions).`,
      }),
    z.strictObject({ type: z.literal('open_credit_card'), creditLimit: positiveAmount(5000) }).meta({
      id: 'OpenCreditCardAction',
      description: 'Open a new card with this credit line (a hard inquiry and a new account).',
    }),
    z
      .strictObject({ type: z.literal('take_loan'), loanType: z.enum(LOAN_TYPES), amount: positiveAmount(15000) })
      .meta({ id: 'TakeLoanAction', description: 'Take a new loan of `amount` (a hard inquiry and a new account).' }),
    z.strictObject({ type: z.literal('close_account'), accountId: ZAccountId }).meta({
      id: 'CloseAccountAction',
      description: 'Close an open account (a card’s line stops counting toward utilization).',
    }),
    z
      .strictObject({ type: z.literal('miss_payment'), accountId: ZAccountId })
      .meta({ id: 'MissPaymentAction', description: 'Miss a payment on an open account (reported 30 days late).' }),
    z
      .strictObject({ type: z.literal('hard_inquiry') })
      .meta({ id: 'HardInquiryAction', description: 'Apply for credit once more: one new hard inquiry.' }),
    z.strictObject({ type: z.literal('raise_credit_limit'), accountId: ZAccountId, newLimit: positiveAmount(12000) }).meta({
      id: 'RaiseCreditLimitAction',
      description: 'Raise an open card’s credit line to `newLimit` (above the current one).',
    }),
  ])
  .meta({ id: 'SimulationAction' });
export type TSimulationAction = z.infer<typeof ZSimulationAction>;
export type TSimulationActionType = TSimulationAction['type'];

export const SIMULATED_MONTHS_PROBLEM = `pay_on_time months add up to more than ${MAX_SIMULATED_MONTHS} across the actions; a simulation looks at most ${MAX_SIMULATED_MONTHS} months ahead`;

export const ZSimulationInput = z
  .strictObject({
    actions: z
      .array(ZSimulationAction)
      .min(1, 'must name at least one action')
      .max(MAX_SIMULATION_ACTIONS, `must name at most ${MAX_SIMULATION_ACTIONS} actions`)
      .check((ctx) => {
        // The per-action bound alone lets ten actions look twenty years ahead; the horizon is one simulation's.
        let months = 0;
        for (const [index, action] of ctx.value.entries()) {
          // An action refused on its own (months not a whole number within bounds) is already named by its own issue.
          const { type, months: more } = (action ?? {}) as { type?: unknown; months?: unknown };
          if (type !== 'pay_on_time' || typeof more !== 'number' || !Number.isInteger(more) || more > MAX_SIMULATED_MONTHS) {
            continue;
          }
          months += more;
          if (months <= MAX_SIMULATED_MONTHS) continue;
          ctx.issues.push({ code: 'custom', input: more, path: [index, 'months'], message: SIMULATED_MONTHS_PROBLEM });
          return;
        }
      })
      .meta({
        description: `1–${MAX_SIMULATION_ACTIONS} actions, applied in order. Their \`pay_on_time\` months add up to at most ${MAX_SIMULATED_MONTHS} months in all: more is a 400 naming the action that goes past it.`,
      }),
  })
  .meta({ id: 'SimulationInput' });
export type TSimulationInput = z.infer<typeof ZSimulationInput>;

const ZFactorStanding = z.object({
  score: z.number().int().min(0).max(100).meta({ description: 'How well the user does on the factor, 0–100.', example: 62 }),
  impact: ZFactorImpact,
});

export const ZSimulatedFactor = z
  .object({
    code: ZFactorCode,
    name: z.string().meta({ example: 'Credit utilization' }),
    before: ZFactorStanding,
    after: ZFactorStanding,
  })
  .meta({ id: 'SimulatedFactor' });

export const SIMULATION_DISCLAIMER =
  'This is an estimate, not a promise: your real score depends on everything lenders report, and on when they report it. ' +
  'Nothing here was saved, and your credit file was not checked again.';

export const ZSimulation = z
  .object({
    currentScore: ZScoreValue.meta({ description: 'The score on record.' }),
    simulatedScore: ZScoreValue.meta({ description: `The estimated score after the actions, ${SCORE_MIN}–${SCORE_MAX}.` }),
    change: z.number().int().meta({ description: '`simulatedScore − currentScore`.', example: 18 }),
    currentRating: ZCreditRating,
    simulatedRating: ZCreditRating,
    scoreRange: z.object({
      min: z.number().int().meta({ example: SCORE_MIN }),
      max: z.number().int().meta({ example: SCORE_MAX }),
    }),
    bureau: ZCreditBureau,
    reportDate: ZDate.meta({ description: 'The day of the file on record the simulation starts from.' }),
    factors: z.array(ZSimulatedFactor).meta({ description: 'Each of the five factors before and after the actions.' }),
    disclaimer: z.string().meta({ example: SIMULATION_DISCLAIMER }),
  })
  .meta({ id: 'CreditScoreSimulation' });
export type TSimulation = z.infer<typeof ZSimulation>;
