import type { TCreditReportAccount, TSimulationAction, TSimulationActionType } from '@credit/contract';

// The contract's limits, repeated: its module pulls zod, which must stay out of the widget (see score/bands.ts).
export const MAX_ACTIONS = 10;
export const MAX_MONTHS = 24;
export const MAX_AMOUNT = 10_000_000;
export const LOAN_TYPES = ['auto_loan', 'personal_loan', 'student_loan', 'mortgage'] as const;
export type LoanType = (typeof LOAN_TYPES)[number];

/** The order the action picker lists them in: what helps first, then what hurts. */
export const ACTION_TYPES: readonly TSimulationActionType[] = [
  'pay_down_balance',
  'pay_on_time',
  'raise_credit_limit',
  'open_credit_card',
  'take_loan',
  'close_account',
  'miss_payment',
  'hard_inquiry',
];

/** One action as the form holds it: every field any action type may need, the figure as the customer typed it. */
export interface DraftAction {
  /** Tells drafts apart across removals (React keys, element ids). */
  key: number;
  type: TSimulationActionType;
  accountId: string;
  loanType: LoanType;
  amount: string;
}

/** The form's parts an error can sit next to; `action` is the action as a whole. */
export type DraftSlot = 'accountId' | 'loanType' | 'amount' | 'action';

export type Problem =
  | { code: 'chooseAccount' }
  | { code: 'enterAmount' }
  | { code: 'tooLow'; min: number }
  | { code: 'tooHigh'; max: number }
  | { code: 'moreThanBalance'; balance: number }
  | { code: 'notAboveLimit'; limit: number }
  | { code: 'months' }
  /** The API's own words, for a problem only it can see. */
  | { code: 'api'; message: string };

export type DraftProblems = Partial<Record<DraftSlot, Problem>>;

/** Which accounts an action can name; an action type with none to name is not offered. */
const ELIGIBLE: Partial<Record<TSimulationActionType, (account: TCreditReportAccount) => boolean>> = {
  pay_down_balance: (account) => account.status === 'open' && account.balance > 0,
  close_account: (account) => account.status === 'open',
  miss_payment: (account) => account.status === 'open',
  raise_credit_limit: (account) => account.status === 'open' && account.type === 'credit_card' && account.creditLimit !== null,
};

export const needsAccount = (type: TSimulationActionType): boolean => ELIGIBLE[type] !== undefined;

export const eligibleAccounts = (type: TSimulationActionType, accounts: readonly TCreditReportAccount[]) => {
  const eligible = ELIGIBLE[type];
  return eligible ? accounts.filter(eligible) : [];
};

export const availableActionTypes = (accounts: readonly TCreditReportAccount[]): TSimulationActionType[] =>
  ACTION_TYPES.filter((type) => !needsAccount(type) || eligibleAccounts(type, accounts).length > 0);

export type AmountKind = 'currency' | 'months';

/** The slider's span and steps, where it starts, and the most the number field may take (the slider stops earlier). */
export interface AmountRange {
  kind: AmountKind;
  min: number;
  max: number;
  step: number;
  initial: number;
  limit: number;
}

/** About a hundred slider steps over `span`, each a round figure (1, 5, 10, 25, 50, 100, 250…). */
const roundStep = (span: number): number => {
  const rough = span / 100;
  const steps = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000];
  return steps.find((step) => step >= rough) ?? 10_000;
};

const roundTo = (value: number, step: number) => Math.max(step, Math.round(value / step) * step);

const LOAN_RANGES: Record<LoanType, Omit<AmountRange, 'kind' | 'limit'>> = {
  auto_loan: { min: 1000, max: 100_000, step: 500, initial: 25_000 },
  personal_loan: { min: 500, max: 50_000, step: 500, initial: 10_000 },
  student_loan: { min: 1000, max: 150_000, step: 1000, initial: 30_000 },
  mortgage: { min: 50_000, max: 1_500_000, step: 10_000, initial: 300_000 },
};

/** The figure an action takes, or null for one that takes none (closing an account, a missed payment, an inquiry). */
export const amountRange = (draft: DraftAction, account: TCreditReportAccount | undefined): AmountRange | null => {
  switch (draft.type) {
    case 'pay_down_balance': {
      if (!account) return null;
      const step = roundStep(account.balance);
      const min = Math.min(step, account.balance);
      // The slider stops on its last whole step ($1,825 of $1,840.50): a slider cannot land between steps. The
      // number field takes the exact balance.
      const max = Math.max(min, Math.floor(account.balance / step) * step);
      const initial = Math.min(max, roundTo(account.balance / 2, step));
      return { kind: 'currency', min, max, step, initial, limit: account.balance };
    }
    case 'pay_on_time':
      return { kind: 'months', min: 1, max: MAX_MONTHS, step: 1, initial: 12, limit: MAX_MONTHS };
    case 'open_credit_card':
      return { kind: 'currency', min: 500, max: 50_000, step: 500, initial: 5000, limit: MAX_AMOUNT };
    case 'take_loan':
      return { kind: 'currency', ...LOAN_RANGES[draft.loanType], limit: MAX_AMOUNT };
    case 'raise_credit_limit': {
      const current = account?.creditLimit;
      if (current === undefined || current === null) return null;
      const step = roundStep(Math.max(current * 2, 10_000));
      const min = roundTo(current, step) + step;
      const max = Math.max(roundTo(current * 3, step), min + 50 * step);
      return { kind: 'currency', min, max, step, initial: Math.max(min, roundTo(current * 1.5, step)), limit: MAX_AMOUNT };
    }
    default:
      return null;
  }
};

/** A draft of `type`, its account the first that fits and its figure where the slider starts. */
export const draftFor = (
  key: number,
  type: TSimulationActionType,
  accounts: readonly TCreditReportAccount[],
  loanType: LoanType = 'auto_loan',
): DraftAction => {
  const account = eligibleAccounts(type, accounts)[0];
  const draft: DraftAction = { key, type, accountId: account?.accountId ?? '', loanType, amount: '' };
  const range = amountRange(draft, account);
  return { ...draft, amount: range ? String(range.initial) : '' };
};

/** What the customer typed, as a number: spaces, thousands separators and a dollar sign are allowed. */
export const parseAmount = (text: string): number | null => {
  const cleaned = text.replace(/[\s,$]/g, '');
  if (cleaned === '') return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
};

/** The draft as the API takes it, or the problems to fix first (checked here so most never reach the API). */
export const toAction = (
  draft: DraftAction,
  accounts: readonly TCreditReportAccount[],
): { action: TSimulationAction; problems?: undefined } | { action?: undefined; problems: DraftProblems } => {
  const problems: DraftProblems = {};
  const account = accounts.find((candidate) => candidate.accountId === draft.accountId);
  if (needsAccount(draft.type) && !eligibleAccounts(draft.type, accounts).some((a) => a.accountId === draft.accountId)) {
    problems.accountId = { code: 'chooseAccount' };
  }
  const range = amountRange(draft, account);
  const amount = parseAmount(draft.amount);
  if (range && !problems.accountId) {
    if (amount === null) problems.amount = { code: 'enterAmount' };
    else if (range.kind === 'months') {
      if (!Number.isInteger(amount) || amount < 1 || amount > MAX_MONTHS) problems.amount = { code: 'months' };
    } else if (amount <= 0) problems.amount = { code: 'tooLow', min: 0 };
    else if (draft.type === 'pay_down_balance' && account && amount > account.balance) {
      problems.amount = { code: 'moreThanBalance', balance: account.balance };
    } else if (draft.type === 'raise_credit_limit' && account?.creditLimit != null && amount <= account.creditLimit) {
      problems.amount = { code: 'notAboveLimit', limit: account.creditLimit };
    } else if (amount > MAX_AMOUNT) problems.amount = { code: 'tooHigh', max: MAX_AMOUNT };
  }
  if (Object.keys(problems).length) return { problems };

  const value = amount as number;
  const { accountId } = draft;
  switch (draft.type) {
    case 'pay_down_balance':
      return { action: { type: 'pay_down_balance', accountId, amount: value } };
    case 'pay_on_time':
      return { action: { type: 'pay_on_time', months: value } };
    case 'open_credit_card':
      return { action: { type: 'open_credit_card', creditLimit: value } };
    case 'take_loan':
      return { action: { type: 'take_loan', loanType: draft.loanType, amount: value } };
    case 'close_account':
      return { action: { type: 'close_account', accountId } };
    case 'miss_payment':
      return { action: { type: 'miss_payment', accountId } };
    case 'hard_inquiry':
      return { action: { type: 'hard_inquiry' } };
    case 'raise_credit_limit':
      return { action: { type: 'raise_credit_limit', accountId, newLimit: value } };
  }
};

const AMOUNT_FIELDS = new Set(['amount', 'creditLimit', 'newLimit', 'months']);

/**
 * Where an API validation detail belongs: `actions.0.amount` is the first action's figure, `actions.1.accountId` the
 * second's account, `actions.2` the third action as a whole; null for a field outside the actions.
 */
export const locateDetail = (field: string): { index: number; slot: DraftSlot } | null => {
  const match = /(?:^|\.)actions\.(\d+)(?:\.(\w+))?/.exec(field);
  if (!match) return null;
  const index = Number(match[1]);
  const name = match[2];
  const slot: DraftSlot =
    name && AMOUNT_FIELDS.has(name) ? 'amount' : name === 'accountId' ? 'accountId' : name === 'loanType' ? 'loanType' : 'action';
  return { index, slot };
};
