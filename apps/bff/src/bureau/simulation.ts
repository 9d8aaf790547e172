import { amortizedPayment } from './amortization.ts';
import { isoDate, monthsSince, round1 } from './dates.ts';
import type { CreditFile, PaymentStatus, SimulationAction, Tradeline, TradelineKind } from './provider.ts';

/** An action that does not fit the file (an unknown account, paying more than is owed); `index` is its place in the list. */
export class SimulationActionError extends Error {
  constructor(
    readonly index: number,
    readonly field: 'tradelineId' | 'amount' | 'newLimit',
    message: string,
  ) {
    super(message);
    this.name = 'SimulationActionError';
  }
}

/** What a file looks like after the actions, and the day it is as of (paying on time for N months moves it N months on). */
export interface SimulatedFile {
  file: CreditFile;
  asOf: Date;
}

const PAYMENT_HISTORY_KEPT = 24;
const LOAN_TERM_MONTHS: Record<Exclude<TradelineKind, 'credit_card'>, number> = {
  auto_loan: 60,
  personal_loan: 60,
  student_loan: 120,
  mortgage: 360,
};
/** The next grade of a month already late: a second miss in a row makes it 60 days late, and so on. */
const LATER: Partial<Record<PaymentStatus, PaymentStatus>> = { ok: '30', no_data: '30', '30': '60', '60': '90', '90': '120' };

const usd = (amount: number) => `$${Math.round(amount).toLocaleString('en-US')}`;

const addMonths = (date: Date, months: number): Date => {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
};

/**
 * Months of payments the file's on-time share is over: one per account per month open. A bureau reports the share,
 * not the count, so the count is estimated the way the file is laid out; it only scales how much one month moves it.
 */
const paymentMonths = (file: CreditFile, asOf: Date): number =>
  file.tradelines.reduce((sum, t) => sum + Math.max(1, monthsSince(t.openedOn, asOf)), 0);

/**
 * Applies the actions, in order, to a copy of the file (never to its scores: a bureau's model does that). Pure; an
 * action that does not fit throws SimulationActionError naming it.
 */
export const simulateFile = (file: CreditFile, asOf: Date, actions: SimulationAction[]): SimulatedFile => {
  const tradelines: Tradeline[] = file.tradelines.map((t) => ({ ...t, paymentHistory: [...t.paymentHistory] }));
  const inquiries = [...file.inquiries];
  let onTime = file.onTimePaymentPercent;
  let day = asOf;
  let opened = 0;

  const accountOf = (index: number): Tradeline => {
    const action = actions[index] as { tradelineId: string };
    const account = tradelines.find((t) => t.id === action.tradelineId);
    if (!account) throw new SimulationActionError(index, 'tradelineId', 'is not an account on this credit report');
    return account;
  };

  const openAccount = (index: number, required: 'credit_card' | 'any'): Tradeline => {
    const account = accountOf(index);
    if (account.closedOn !== null) {
      throw new SimulationActionError(index, 'tradelineId', 'is closed: a closed account can only have its balance paid down');
    }
    if (required === 'credit_card' && account.kind !== 'credit_card') {
      throw new SimulationActionError(index, 'tradelineId', 'is not a credit card: only a card has a credit line to raise');
    }
    return account;
  };

  const newAccount = (kind: TradelineKind, limitOrAmount: number, balance: number, source: string) => {
    const today = isoDate(day);
    opened += 1;
    tradelines.push({
      id: `simulated_${opened}`,
      lender: source,
      kind,
      status: 'open',
      openedOn: today,
      closedOn: null,
      limitOrAmount,
      balance,
      latePayments: 0,
      monthlyPayment: kind === 'credit_card' ? null : Math.round(amortizedPayment(balance, 8, LOAN_TERM_MONTHS[kind])),
      apr: null,
      termMonths: kind === 'credit_card' ? null : LOAN_TERM_MONTHS[kind],
      paymentHistory: ['ok'],
    });
    inquiries.push({ source, date: today });
  };

  actions.forEach((action, index) => {
    switch (action.type) {
      case 'pay_down_balance': {
        // Closed or open: a closed card's balance is still owed and still counts toward utilization.
        const account = accountOf(index);
        if (account.balance <= 0) throw new SimulationActionError(index, 'tradelineId', 'has no balance to pay down');
        if (action.amount > account.balance) {
          throw new SimulationActionError(index, 'amount', `must be at most the account's balance, ${usd(account.balance)}`);
        }
        account.balance = Math.round((account.balance - action.amount) * 100) / 100;
        return;
      }
      case 'pay_on_time': {
        const before = paymentMonths({ ...file, tradelines }, day);
        day = addMonths(day, action.months);
        const after = paymentMonths({ ...file, tradelines }, day);
        // The late payments stay; more months paid on time make them a smaller share (a file with no account: none).
        if (after > 0) onTime = round1(100 - ((100 - onTime) * before) / Math.max(before, after));
        for (const account of tradelines) {
          if (account.closedOn !== null) continue;
          const months: PaymentStatus[] = Array.from({ length: action.months }, () => 'ok');
          account.paymentHistory = [...months, ...account.paymentHistory].slice(0, PAYMENT_HISTORY_KEPT);
        }
        return;
      }
      case 'open_credit_card':
        newAccount('credit_card', action.creditLimit, 0, 'New credit card');
        return;
      case 'take_loan':
        newAccount(action.loanType, action.amount, action.amount, 'New loan');
        return;
      case 'close_account': {
        const account = openAccount(index, 'any');
        account.closedOn = isoDate(day);
        account.status = 'closed';
        return;
      }
      case 'miss_payment': {
        const account = openAccount(index, 'any');
        account.latePayments += 1;
        account.paymentHistory[0] = LATER[account.paymentHistory[0] ?? 'ok'] ?? '120';
        onTime = round1(Math.max(0, onTime - 100 / Math.max(1, paymentMonths({ ...file, tradelines }, day))));
        return;
      }
      case 'hard_inquiry':
        inquiries.push({ source: 'New credit application', date: isoDate(day) });
        return;
      case 'raise_credit_limit': {
        const account = openAccount(index, 'credit_card');
        if (action.newLimit <= account.limitOrAmount) {
          throw new SimulationActionError(
            index,
            'newLimit',
            `must be more than the current credit line, ${usd(account.limitOrAmount)}`,
          );
        }
        account.limitOrAmount = action.newLimit;
        return;
      }
    }
  });
  return { file: { ...file, tradelines, inquiries, onTimePaymentPercent: onTime }, asOf: day };
};
