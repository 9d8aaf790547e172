import { SCORE_MAX, SCORE_MIN } from '@credit/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { creditFactors } from '../src/bureau/factors.ts';
import type { CreditFile, CreditSubject, SimulationAction } from '../src/bureau/provider.ts';
import { generateCreditFile } from '../src/bureau/sandbox/generate-file.ts';
import { sandboxSimulatedScore } from '../src/bureau/sandbox/simulate-score.ts';
import { SimulationActionError, simulateFile } from '../src/bureau/simulation.ts';

const subjectOf = (i: number, ssnLast4: string): CreditSubject => ({
  userId: `usr_model${i}`,
  firstName: 'Ana',
  lastName: `Ruiz${i}`,
  ssnLast4,
  dateOfBirth: `19${String(50 + (i % 50)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 9}`,
  address: { street: '12 Oak Ave', city: 'Portland', state: 'OR', zipCode: '97201' },
});

/** A sandbox file for a generated person and day: strong, weak and storied files alike. */
const fileArb = fc
  .record({
    person: fc.integer({ min: 0, max: 400 }),
    ssn: fc.constantFrom('1234', '4821', '1001', '1002', '1003', '7310'),
    days: fc.integer({ min: 0, max: 700 }),
  })
  .map(({ person, ssn, days }) => {
    const asOf = new Date(Date.UTC(2025, 0, 2) + days * 86_400_000);
    return { file: generateCreditFile(subjectOf(person, ssn), asOf), asOf };
  });

/** Actions drawn against the file's own accounts (some will not fit their account, as a partner's may not). */
const actionArb = (file: CreditFile): fc.Arbitrary<SimulationAction> => {
  const ids = file.tradelines.map((t) => t.id);
  const id = ids.length > 0 ? fc.constantFrom(...ids) : fc.constant('none');
  return fc.oneof(
    fc.record({ type: fc.constant('pay_down_balance' as const), tradelineId: id, amount: fc.integer({ min: 1, max: 20_000 }) }),
    fc.record({ type: fc.constant('pay_on_time' as const), months: fc.integer({ min: 1, max: 24 }) }),
    fc.record({ type: fc.constant('open_credit_card' as const), creditLimit: fc.integer({ min: 500, max: 50_000 }) }),
    fc.record({
      type: fc.constant('take_loan' as const),
      loanType: fc.constantFrom('auto_loan' as const, 'personal_loan' as const, 'student_loan' as const, 'mortgage' as const),
      amount: fc.integer({ min: 1_000, max: 400_000 }),
    }),
    fc.record({ type: fc.constant('close_account' as const), tradelineId: id }),
    fc.record({ type: fc.constant('miss_payment' as const), tradelineId: id }),
    fc.constant({ type: 'hard_inquiry' as const }),
    fc.record({
      type: fc.constant('raise_credit_limit' as const),
      tradelineId: id,
      newLimit: fc.integer({ min: 500, max: 80_000 }),
    }),
  );
};

const scenarioArb = fileArb.chain((world) =>
  fc.record({ world: fc.constant(world), actions: fc.array(actionArb(world.file), { minLength: 0, maxLength: 6 }) }),
);

/** The simulated score, or undefined when an action does not fit the file (the API answers 400 for those). */
const simulated = (file: CreditFile, asOf: Date, actions: SimulationAction[]): number | undefined => {
  try {
    return sandboxSimulatedScore(file, asOf, actions).simulatedScore;
  } catch (error) {
    if (error instanceof SimulationActionError) return undefined;
    throw error;
  }
};

const openWithBalance = (file: CreditFile) => file.tradelines.filter((t) => t.closedOn === null && t.balance > 0);
const open = (file: CreditFile) => file.tradelines.filter((t) => t.closedOn === null);

describe('sandbox score simulation', () => {
  it('stays within 300–850 and answers the same figures for the same file and actions', () => {
    fc.assert(
      fc.property(scenarioArb, ({ world, actions }) => {
        const score = simulated(world.file, world.asOf, actions);
        fc.pre(score !== undefined);
        expect(score).toBeGreaterThanOrEqual(SCORE_MIN);
        expect(score).toBeLessThanOrEqual(SCORE_MAX);
        expect(simulated(world.file, world.asOf, actions)).toBe(score);
      }),
      { numRuns: 300, seed: 4301 },
    );
  });

  it('never lowers the score for paying a balance down, whatever came before', () => {
    fc.assert(
      fc.property(scenarioArb, fc.double({ min: 0.01, max: 1, noNaN: true }), ({ world, actions }, share) => {
        const base = simulated(world.file, world.asOf, actions);
        fc.pre(base !== undefined);
        const after = simulateFile(world.file, world.asOf, actions).file;
        const account = openWithBalance(after)[0];
        fc.pre(account !== undefined && !account.id.startsWith('simulated_'));
        const amount = Math.max(0.01, Math.round(account.balance * share * 100) / 100);
        const paid = simulated(world.file, world.asOf, [
          ...actions,
          { type: 'pay_down_balance', tradelineId: account.id, amount },
        ]);
        expect(paid).toBeGreaterThanOrEqual(base);
      }),
      { numRuns: 300, seed: 4302 },
    );
  });

  it('never raises the score for a missed payment or a new hard inquiry', () => {
    fc.assert(
      fc.property(scenarioArb, ({ world, actions }) => {
        const base = simulated(world.file, world.asOf, actions);
        fc.pre(base !== undefined);
        const inquiry = simulated(world.file, world.asOf, [...actions, { type: 'hard_inquiry' }]);
        expect(inquiry).toBeLessThanOrEqual(base);
        const account = open(simulateFile(world.file, world.asOf, actions).file).find((t) => !t.id.startsWith('simulated_'));
        fc.pre(account !== undefined);
        const missed = simulated(world.file, world.asOf, [...actions, { type: 'miss_payment', tradelineId: account.id }]);
        expect(missed).toBeLessThanOrEqual(base);
      }),
      { numRuns: 300, seed: 4303 },
    );
  });

  it('moves a real file by a believable amount: paying cards to zero helps, a missed payment hurts most on a good file', () => {
    const asOf = new Date('2026-06-15T00:00:00Z');
    const file = generateCreditFile(subjectOf(7, '1001'), asOf);
    const cards = openWithBalance(file).filter((t) => t.kind === 'credit_card');
    expect(cards.length).toBeGreaterThan(0);
    const { score, simulatedScore } = sandboxSimulatedScore(
      file,
      asOf,
      cards.map((t) => ({ type: 'pay_down_balance', tradelineId: t.id, amount: t.balance })),
    );
    expect(simulatedScore).toBeGreaterThan(score);
    const zeroed = simulateFile(
      file,
      asOf,
      cards.map((t) => ({ type: 'pay_down_balance', tradelineId: t.id, amount: t.balance })),
    );
    const utilization = creditFactors(zeroed.file, zeroed.asOf).find((f) => f.code === 'CREDIT_UTILIZATION');
    expect(utilization?.code === 'CREDIT_UTILIZATION' && utilization.details?.utilizationPercent).toBe(0);
    const card = cards[0];
    if (!card) throw new Error('no card');
    const missed = sandboxSimulatedScore(file, asOf, [{ type: 'miss_payment', tradelineId: card.id }]);
    expect(score - missed.simulatedScore).toBeGreaterThanOrEqual(20);
  });

  it('names the action that does not fit, and leaves the file it was given as it was', () => {
    const asOf = new Date('2026-06-15T00:00:00Z');
    const file = generateCreditFile(subjectOf(3, '1234'), asOf);
    const copy = structuredClone(file);
    const card = file.tradelines.find((t) => t.kind === 'credit_card' && t.closedOn === null && t.balance > 0);
    if (!card) throw new Error('no open card with a balance');
    const tooMuch = () =>
      simulateFile(file, asOf, [
        { type: 'hard_inquiry' },
        { type: 'pay_down_balance', tradelineId: card.id, amount: card.balance + 1 },
      ]);
    expect(tooMuch).toThrowError(SimulationActionError);
    try {
      tooMuch();
    } catch (error) {
      expect(error).toMatchObject({ index: 1, field: 'amount' });
    }
    expect(() => simulateFile(file, asOf, [{ type: 'close_account', tradelineId: 'nope' }])).toThrowError(
      /not an account on this credit report/,
    );
    simulateFile(file, asOf, [
      { type: 'pay_down_balance', tradelineId: card.id, amount: 1 },
      { type: 'miss_payment', tradelineId: card.id },
      { type: 'close_account', tradelineId: card.id },
      { type: 'pay_on_time', months: 6 },
    ]);
    expect(file).toEqual(copy);
  });

  it('pays down a closed card with a balance, and the utilization it leaves is the one the balances and lines give', () => {
    const asOf = new Date('2026-06-15T00:00:00Z');
    const generated = generateCreditFile(subjectOf(3, '1234'), asOf);
    const card = generated.tradelines.find((t) => t.kind === 'credit_card' && t.closedOn === null && t.balance >= 100);
    if (!card) throw new Error('no open card with a balance');
    // Closed on the file itself, as a bureau reports a card closed with money still owed on it.
    const file: CreditFile = {
      ...generated,
      tradelines: generated.tradelines.map((t) => (t === card ? { ...t, status: 'closed', closedOn: '2026-05-01' } : t)),
    };
    const amount = Math.floor(card.balance / 2);
    const after = simulateFile(file, asOf, [{ type: 'pay_down_balance', tradelineId: card.id, amount }]);
    const cards = file.tradelines.filter((t) => t.kind === 'credit_card');
    const owed = cards.reduce((sum, t) => sum + t.balance, 0) - amount;
    const lines = cards.filter((t) => t.closedOn === null).reduce((sum, t) => sum + t.limitOrAmount, 0);
    const utilization = creditFactors(after.file, after.asOf).find((f) => f.code === 'CREDIT_UTILIZATION');
    const details = utilization?.code === 'CREDIT_UTILIZATION' ? utilization.details : undefined;
    expect(details?.totalBalance).toBeCloseTo(owed, 2);
    expect(details?.totalLimit).toBe(lines);
    expect(details?.utilizationPercent).toBeCloseTo((owed / lines) * 100, 0);
    const before = creditFactors(file, asOf).find((f) => f.code === 'CREDIT_UTILIZATION');
    expect((before?.code === 'CREDIT_UTILIZATION' && before.details?.totalBalance) || 0).toBeCloseTo(owed + amount, 2);
    expect(
      sandboxSimulatedScore(file, asOf, [{ type: 'pay_down_balance', tradelineId: card.id, amount }]).simulatedScore,
    ).toBeGreaterThanOrEqual(sandboxSimulatedScore(file, asOf, [{ type: 'hard_inquiry' }]).score);
    // Every other action still wants an open account.
    expect(() => simulateFile(file, asOf, [{ type: 'miss_payment', tradelineId: card.id }])).toThrowError(/^is closed/);
  });

  it('scores a file with no account at all: paying on time and new credit keep every figure a number', () => {
    const asOf = new Date('2026-06-15T00:00:00Z');
    const file = { ...generateCreditFile(subjectOf(5, '1234'), asOf), tradelines: [] };
    for (const actions of [
      [{ type: 'pay_on_time', months: 24 }],
      [
        { type: 'pay_on_time', months: 6 },
        { type: 'open_credit_card', creditLimit: 2000 },
        { type: 'pay_on_time', months: 6 },
      ],
    ] satisfies SimulationAction[][]) {
      const after = simulateFile(file, asOf, actions);
      expect(Number.isFinite(after.file.onTimePaymentPercent), JSON.stringify(actions)).toBe(true);
      for (const f of creditFactors(after.file, after.asOf)) expect(Number.isInteger(f.score), f.code).toBe(true);
      const { simulatedScore } = sandboxSimulatedScore(file, asOf, actions);
      expect(simulatedScore).toBeGreaterThanOrEqual(SCORE_MIN);
      expect(simulatedScore).toBeLessThanOrEqual(SCORE_MAX);
    }
  });
});
