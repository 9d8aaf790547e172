import { describe, expect, it } from 'vitest';
import {
  ZBureauCreditFileAnswer,
  ZBureauIdentityFileAnswer,
  ZBureauSimulationAnswer,
  ZBureauSimulationRequest,
} from '../src/bureau/http/contract.ts';
import type { CreditSubject } from '../src/bureau/provider.ts';
import { generateCreditFile } from '../src/bureau/sandbox/generate-file.ts';

// The bureau contract's answers: a file with the full report's fields crosses the wire unchanged, and a gateway that
// does not send them yet still gives a usable file.

const person = (lastName: string, ssnLast4 = '1234'): CreditSubject => ({
  userId: 'usr_any',
  firstName: 'Jane',
  lastName,
  ssnLast4,
  dateOfBirth: '1985-04-12',
  address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
});

/** A file as a bureau sent it before the full report: no statuses, payments, grids, collections or personal details. */
const fileWithoutReport = {
  bureau: 'Experian',
  monthlyScores: [
    { date: '2026-10-25', score: 712 },
    { date: '2026-11-25', score: 718 },
  ],
  tradelines: [
    {
      id: 'tl_1',
      lender: 'Northwind Bank',
      kind: 'credit_card',
      openedOn: '2019-03-01',
      closedOn: null,
      limitOrAmount: 5000,
      balance: 1200,
      latePayments: 0,
    },
    {
      id: 'tl_2',
      lender: 'Contoso Auto Finance',
      kind: 'auto_loan',
      openedOn: '2015-06-01',
      closedOn: '2020-06-01',
      limitOrAmount: 18000,
      balance: 0,
      latePayments: 1,
    },
  ],
  inquiries: [{ source: 'Contoso Auto Finance', date: '2026-09-14' }],
  pastAddresses: [],
  reportedAddresses: [],
  flags: [],
  onTimePaymentPercent: 99,
};

describe('the bureau file on the wire', () => {
  it('reads a file without the full report’s fields as reporting none of them', () => {
    const answer = ZBureauCreditFileAnswer.parse({ status: 'ok', file: fileWithoutReport });
    if (answer.status !== 'ok') throw new Error('expected a file');
    const { file } = answer;
    expect(file.tradelines.map((t) => t.status)).toEqual(['open', 'closed']);
    for (const line of file.tradelines) {
      expect(line).toMatchObject({ monthlyPayment: null, apr: null, termMonths: null, paymentHistory: [] });
    }
    expect(file).toMatchObject({
      collections: [],
      publicRecords: [],
      softInquiries: [],
      names: [],
      yearOfBirth: null,
      employers: [],
    });
    expect(ZBureauIdentityFileAnswer.parse({ file: fileWithoutReport }).file).toEqual(file);
  });

  it('keeps a status the bureau sends, and refuses report fields that are wrong', () => {
    const withStatus = (tradeline: Record<string, unknown>) =>
      ZBureauIdentityFileAnswer.safeParse({
        file: { ...fileWithoutReport, tradelines: [{ ...fileWithoutReport.tradelines[1], ...tradeline }] },
      });
    expect(withStatus({ status: 'paid_off' }).data?.file.tradelines[0]?.status).toBe('paid_off');
    expect(withStatus({ status: 'repossessed' }).success).toBe(false);
    expect(withStatus({ paymentHistory: Array(25).fill('ok') }).success).toBe(false);
    expect(withStatus({ paymentHistory: ['ok', '45'] }).success).toBe(false);
    expect(withStatus({ apr: -1 }).success).toBe(false);
    expect(withStatus({ termMonths: 59.5 }).success).toBe(false);
    const collection = {
      id: 'col_1',
      agency: 'A',
      originalCreditor: 'B',
      reportedOn: '2024-01-02',
      originalAmount: 10,
      balance: 10,
    };
    const withCollection = (extra: Record<string, unknown>) =>
      ZBureauIdentityFileAnswer.safeParse({ file: { ...fileWithoutReport, collections: [{ ...collection, ...extra }] } });
    expect(withCollection({ paidOn: null }).success).toBe(true);
    // Only the new fields may be absent: within a collection, every field is required.
    expect(withCollection({}).success).toBe(false);
  });

  it('carries sandbox files, every report field included, unchanged', () => {
    const asOf = new Date('2026-11-23T10:00:00.000Z');
    // Jane Doe, a weak file with collections, and the three stories.
    for (const subject of [
      person('Doe'),
      person('Person146'),
      person('Teller', '1001'),
      person('Teller', '1002'),
      person('Teller', '1003'),
    ]) {
      const file = generateCreditFile(subject, asOf);
      const answer = ZBureauCreditFileAnswer.parse(JSON.parse(JSON.stringify({ status: 'ok', file })));
      expect(answer).toEqual({ status: 'ok', file });
    }
  });
});

describe('the score simulation on the wire', () => {
  const request = {
    subject: {
      firstName: 'Jane',
      lastName: 'Doe',
      ssnLast4: '1234',
      dateOfBirth: '1985-04-12',
      address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
    },
    asOf: '2026-11-23T10:00:00.000Z',
  };

  it('takes one to ten actions of the known kinds, accounts named by tradeline id', () => {
    const parse = (actions: unknown) => ZBureauSimulationRequest.safeParse({ ...request, actions });
    expect(
      parse([
        { type: 'pay_down_balance', tradelineId: 'tl_1', amount: 500 },
        { type: 'pay_on_time', months: 6 },
        { type: 'open_credit_card', creditLimit: 5000 },
        { type: 'take_loan', loanType: 'auto_loan', amount: 15000 },
        { type: 'close_account', tradelineId: 'tl_2' },
        { type: 'miss_payment', tradelineId: 'tl_3' },
        { type: 'hard_inquiry' },
        { type: 'raise_credit_limit', tradelineId: 'tl_1', newLimit: 12000 },
      ]).success,
    ).toBe(true);
    expect(parse([]).success).toBe(false);
    expect(parse(Array(11).fill({ type: 'hard_inquiry' })).success).toBe(false);
    expect(parse([{ type: 'take_loan', loanType: 'credit_card', amount: 100 }]).success).toBe(false);
    expect(parse([{ type: 'pay_down_balance', tradelineId: 'tl_1', amount: 0 }]).success).toBe(false);
    expect(parse([{ type: 'close_account', tradelineId: '' }]).success).toBe(false);
  });

  it('answers two scores in VantageScore 3.0’s range', () => {
    expect(ZBureauSimulationAnswer.safeParse({ score: 700, simulatedScore: 731 }).success).toBe(true);
    expect(ZBureauSimulationAnswer.safeParse({ score: 700, simulatedScore: 851 }).success).toBe(false);
    expect(ZBureauSimulationAnswer.safeParse({ score: 700.5, simulatedScore: 731 }).success).toBe(false);
  });
});
