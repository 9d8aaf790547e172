import type { TCreditFactor } from '@credit/contract';
import { round1, yearsSince } from './dates.ts';
import type { CreditFile, TradelineKind } from './provider.ts';

/** The figures every factor is computed from; any bureau's file yields them. */
export interface FileFigures {
  utilizationPercent: number;
  totalBalance: number;
  totalLimit: number;
  averageAgeYears: number;
  oldestAccountYears: number;
  creditKinds: TradelineKind[];
  recentInquiries: number;
  latePayments: number;
  onTimePaymentPercent: number;
}

const clamp = (value: number) => Math.max(0, Math.min(100, Math.round(value)));

export const fileFigures = (file: CreditFile, asOf: Date): FileFigures => {
  const cards = file.tradelines.filter((t) => t.kind === 'credit_card');
  const totalLimit = cards.reduce((sum, t) => sum + (t.closedOn ? 0 : t.limitOrAmount), 0);
  // A closed card's balance is still owed and still counts; only its line stops counting.
  const totalBalance = cards.reduce((sum, t) => sum + t.balance, 0);
  const ages = file.tradelines.map((t) => yearsSince(t.openedOn, asOf));
  const yearAgo = asOf.getTime() - 365 * 86_400_000;
  const utilization = totalLimit > 0 ? (totalBalance / totalLimit) * 100 : totalBalance > 0 ? 100 : 0;
  return {
    utilizationPercent: round1(utilization),
    totalBalance,
    totalLimit,
    averageAgeYears: ages.length ? round1(ages.reduce((a, b) => a + b, 0) / ages.length) : 0,
    oldestAccountYears: ages.length ? round1(Math.max(...ages)) : 0,
    creditKinds: [...new Set(file.tradelines.map((t) => t.kind))],
    recentInquiries: file.inquiries.filter((i) => Date.parse(`${i.date}T00:00:00Z`) >= yearAgo).length,
    latePayments: file.tradelines.reduce((sum, t) => sum + t.latePayments, 0),
    onTimePaymentPercent: file.onTimePaymentPercent,
  };
};

const KIND_LABELS: Record<TradelineKind, string> = {
  credit_card: 'credit cards',
  auto_loan: 'an auto loan',
  student_loan: 'a student loan',
  mortgage: 'a mortgage',
  personal_loan: 'a personal loan',
};

const listing = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

const usd = (amount: number) => `$${Math.round(amount).toLocaleString('en-US')}`;

/**
 * The five VantageScore factors with `impact` = how much the factor is holding this score back
 * (high, medium, low), judged from the user's own figures: 85 % utilisation is high impact, 5 % is low.
 * `score` (0–100) is how well the user does on the factor.
 */
export const creditFactors = (file: CreditFile, asOf: Date): TCreditFactor[] => {
  const f = fileFigures(file, asOf);
  const util = f.utilizationPercent;
  return [
    {
      code: 'PAYMENT_HISTORY',
      name: 'Payment history',
      impact: f.onTimePaymentPercent < 97 ? 'high' : f.latePayments > 0 ? 'medium' : 'low',
      score: clamp(100 - (100 - f.onTimePaymentPercent) * 8),
      description:
        f.latePayments === 0
          ? 'Every payment on your accounts has been on time. Payment history weighs most on your score.'
          : `${f.onTimePaymentPercent}% of your payments were on time; ${f.latePayments} ${f.latePayments === 1 ? 'was' : 'were'} late. Late payments weigh most on a score and fade over 7 years.`,
    },
    {
      code: 'CREDIT_UTILIZATION',
      name: 'Credit utilization',
      impact: util >= 50 ? 'high' : util >= 30 ? 'medium' : 'low',
      score: clamp(100 - util * 1.1),
      description: `You are using ${util}% of your ${usd(f.totalLimit)} of card credit. Under 30% helps your score; under 10% is best.`,
      details: { utilizationPercent: util, totalBalance: f.totalBalance, totalLimit: f.totalLimit },
    },
    {
      code: 'CREDIT_AGE',
      name: 'Credit age',
      impact: f.averageAgeYears < 3 ? 'high' : f.averageAgeYears < 7 ? 'medium' : 'low',
      score: clamp(f.averageAgeYears * 8 + f.oldestAccountYears * 1.5),
      description: `Your accounts are ${f.averageAgeYears} years old on average and the oldest is ${f.oldestAccountYears} years old. Older accounts help.`,
      details: { averageAgeYears: f.averageAgeYears, oldestAccountYears: f.oldestAccountYears },
    },
    {
      code: 'CREDIT_MIX',
      name: 'Credit mix',
      impact: f.creditKinds.length <= 1 ? 'high' : f.creditKinds.length === 2 ? 'medium' : 'low',
      score: clamp([0, 35, 60, 80, 95][Math.min(4, f.creditKinds.length)] ?? 95),
      description: `You have ${f.creditKinds.length} kind${f.creditKinds.length === 1 ? '' : 's'} of credit: ${listing(f.creditKinds.map((k) => KIND_LABELS[k]))}. Lenders like to see both cards and loans handled well.`,
    },
    {
      code: 'NEW_CREDIT',
      name: 'New credit',
      impact: f.recentInquiries >= 4 ? 'high' : f.recentInquiries >= 2 ? 'medium' : 'low',
      score: clamp(100 - f.recentInquiries * 18),
      description: `${f.recentInquiries} hard ${f.recentInquiries === 1 ? 'inquiry' : 'inquiries'} in the last 12 months. Each application can lower your score a little for up to a year.`,
      details: { recentInquiries: f.recentInquiries },
    },
  ];
};
