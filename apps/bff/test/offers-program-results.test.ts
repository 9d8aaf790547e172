import type { TCreateOfferInput } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolUser, verifyUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

type Counts = Record<(typeof METRICS)[number], number>;
const METRICS = [
  'enrolled',
  'verified',
  'consented',
  'looked',
  'impressions',
  'clicks',
  'applications',
  'approvals',
  'declines',
  'funded',
  'fundedAmount',
] as const;
const OFFER_METRICS = ['impressions', 'clicks', 'applications', 'approvals', 'declines', 'funded', 'fundedAmount'] as const;

const zero = (): Counts => Object.fromEntries(METRICS.map((m) => [m, 0])) as Counts;
const counts = (some: Partial<Counts>): Counts => ({ ...zero(), ...some });
const sum = (...all: Counts[]): Counts =>
  Object.fromEntries(METRICS.map((m) => [m, Math.round(all.reduce((total, c) => total + c[m], 0) * 100) / 100])) as Counts;
const offerCounts = (c: Counts) => Object.fromEntries(OFFER_METRICS.map((m) => [m, c[m]]));

/** The days things happen on (UTC): a Monday, the Wednesday after, the Tuesday of the next week, the next month. */
const D1 = '2026-03-02';
const D2 = '2026-03-04';
const D3 = '2026-03-10';
const D4 = '2026-04-01';

let app: TestApp;
let bank: TestClient;
let cardId: string;
let loanId: string;
const users: Record<'a' | 'b' | 'c' | 'd' | 'e', { userId: string; externalUserId: string }> = {} as never;

const admin = () => app.currentToken(bank);
const on = (day: string, time = '12:00:00') => app.clock.set(new Date(`${day}T${time}Z`));

const offer = (input: Partial<TCreateOfferInput> & Pick<TCreateOfferInput, 'type' | 'name'>): TCreateOfferInput => ({
  description: 'A test offer.',
  aprType: 'fixed',
  tiers: [{ minScore: 300, maxScore: 850, apr: 12, creditLimit: { min: 2000, max: 8000 } }],
  applicationUrl: 'https://apply.results-bank.test/apply?ref={clickId}',
  status: 'active',
  ...input,
});

const readScore = async (userId: string, token?: string) => {
  const res = await app.request('GET', `/v1/users/${userId}/credit-score`, { token: token ?? (await admin()) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { score: number; rating: string };
};
const userToken = async (who: keyof typeof users) => app.userToken(await admin(), users[who].externalUserId);
const impressions = async (who: keyof typeof users, offerIds: string[]) => {
  const res = await app.request('POST', `/v1/users/${users[who].userId}/offers/impressions`, {
    token: await userToken(who),
    body: { offerIds },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { counted: number; alreadyCounted: number };
};
const click = async (who: keyof typeof users, offerId: string) => {
  const res = await app.request('POST', `/v1/users/${users[who].userId}/offers/${offerId}/click`, {
    token: await userToken(who),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.clickId as string;
};
const outcome = async (clickId: string, stage: string, amount?: number) => {
  const res = await app.request('POST', `/v1/offers/clicks/${clickId}/outcomes`, {
    token: await admin(),
    body: { stage, ...(amount === undefined ? {} : { amount }) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const results = (query: string) => admin().then((token) => app.request('GET', `/v1/offers/results?${query}`, { token }));

/** What the sequence in beforeAll makes each day, counted by hand. */
const DAY1 = counts({ enrolled: 4, consented: 4, verified: 3, looked: 2, impressions: 3, clicks: 3, applications: 1 });
const DAY2 = counts({ verified: 1, looked: 2, impressions: 1, applications: 2, approvals: 2, funded: 1, fundedAmount: 15000 });
const DAY3 = counts({ impressions: 1, clicks: 1, applications: 1, approvals: 1, declines: 1, funded: 2, fundedAmount: 11500.25 });
const DAY4 = counts({ enrolled: 1, consented: 1, looked: 1 });
const CARD = counts({ impressions: 3, clicks: 2, applications: 2, approvals: 1, declines: 1, funded: 1, fundedAmount: 6500.25 });
const LOAN = counts({ impressions: 2, clicks: 2, applications: 2, approvals: 2, funded: 2, fundedAmount: 20000 });

beforeAll(async () => {
  app = await startTestApp();
  on(D1, '09:00:00');
  bank = await app.createClient({ name: 'Results Bank' });
  const people = { a: '2101', b: '3202', c: '4303', d: '5404', e: '6505' } as const;
  const enrol = async (who: keyof typeof people, i: number) => {
    const externalUserId = `results-${who}`;
    const userId = await enrolUser(app, await admin(), {
      externalUserId,
      ssn: people[who],
      dateOfBirth: `19${60 + i * 7}-0${1 + i}-1${i}`,
    });
    users[who] = { userId, externalUserId };
  };

  // Day 1: four enrolments, three verifications, two customers looking (one of them twice), a report read (not a
  // look), impressions (a repeat and an unknown id not counted), three clicks and one application.
  for (const [i, who] of (['a', 'b', 'c', 'd'] as const).entries()) await enrol(who, i);
  for (const who of ['a', 'b', 'c'] as const) await verifyUser(app, await admin(), users[who].userId);
  cardId = (
    await app.request('POST', '/v1/offers', { token: await admin(), body: offer({ type: 'credit_card', name: 'Results Card' }) })
  ).body.data.offerId;
  loanId = (
    await app.request('POST', '/v1/offers', {
      token: await admin(),
      body: offer({
        type: 'loan',
        name: 'Results Loan',
        termMonths: 48,
        tiers: [{ minScore: 300, maxScore: 850, apr: 9.5, creditLimit: { min: 5000, max: 40000 } }],
      }),
    })
  ).body.data.offerId;
  await readScore(users.a.userId, await userToken('a'));
  await readScore(users.a.userId, await userToken('a'));
  await readScore(users.b.userId);
  expect((await app.request('GET', `/v1/users/${users.c.userId}/credit-report`, { token: await admin() })).status).toBe(200);
  expect(await impressions('a', [cardId, loanId])).toEqual({ counted: 2, alreadyCounted: 0 });
  expect(await impressions('a', [cardId])).toEqual({ counted: 0, alreadyCounted: 1 });
  expect(await impressions('b', [cardId, 'off_notInTheCatalogue1'])).toEqual({ counted: 1, alreadyCounted: 0 });
  const aCard = await click('a', cardId);
  const bCard = await click('b', cardId);
  const aLoan = await click('a', loanId);
  await outcome(aCard, 'applied');

  // Day 2: one verification, two customers looking (each looked before, or twice today), an impression seen again on
  // a new day, an approval, an application, and a loan funded straight away (applied, approved and funded at once).
  on(D2, '15:00:00');
  await verifyUser(app, await admin(), users.d.userId);
  await readScore(users.a.userId, await userToken('a'));
  await readScore(users.c.userId);
  await readScore(users.c.userId);
  expect(await impressions('a', [cardId])).toEqual({ counted: 1, alreadyCounted: 0 });
  await outcome(aCard, 'approved', 7000);
  await outcome(bCard, 'applied');
  await outcome(aLoan, 'funded', 15000);

  // Day 3 (the next week): the card funded, the other card application declined, a new loan click funded through the
  // sandbox's convert helper (the tier's lower limit, 5000), an impression.
  on(D3);
  await outcome(aCard, 'funded', 6500.25);
  await outcome(bCard, 'declined');
  await click('c', loanId);
  const converted = await app.request('POST', `/v1/sandbox/users/${users.c.userId}/offers/${loanId}/convert`, {
    token: await admin(),
  });
  expect(converted.status, JSON.stringify(converted.body)).toBe(201);
  expect(await impressions('d', [loanId])).toEqual({ counted: 1, alreadyCounted: 0 });

  // Day 4 (the next month): an enrolment never verified, and a look.
  on(D4, '08:00:00');
  await enrol('e', 4);
  await readScore(users.b.userId);
}, 60_000);
afterAll(() => app.close());

describe('GET /v1/offers/results', () => {
  it('counts by day: every day of the range in order, each with what happened on it', async () => {
    const res = await results('from=2026-03-01&to=2026-03-10&interval=day');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const days = Array.from({ length: 10 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`);
    const happened: Record<string, Counts> = { [D1]: DAY1, [D2]: DAY2, [D3]: DAY3 };
    expect(res.body.data.series).toEqual(days.map((start) => ({ start, ...(happened[start] ?? zero()) })));
    expect(res.body.data).toMatchObject({ from: '2026-03-01', to: '2026-03-10', interval: 'day', totals: sum(DAY1, DAY2, DAY3) });
    // The day is the default interval; a range of one day holds that day alone.
    const second = await results(`from=${D2}&to=${D2}`);
    expect(second.body.data).toMatchObject({ interval: 'day', totals: DAY2, series: [{ start: D2, ...DAY2 }] });
  });

  it('counts by week (from Monday) and by month', async () => {
    const weeks = await results('from=2026-03-01&to=2026-04-05&interval=week');
    expect(weeks.status).toBe(200);
    expect(weeks.body.data.series).toEqual([
      { start: '2026-02-23', ...zero() },
      { start: '2026-03-02', ...sum(DAY1, DAY2) },
      { start: '2026-03-09', ...DAY3 },
      { start: '2026-03-16', ...zero() },
      { start: '2026-03-23', ...zero() },
      { start: '2026-03-30', ...DAY4 },
    ]);
    expect(weeks.body.data.totals).toEqual(sum(DAY1, DAY2, DAY3, DAY4));

    const months = await results('from=2026-03-01&to=2026-04-30&interval=month');
    expect(months.body.data.series).toEqual([
      { start: '2026-03-01', ...sum(DAY1, DAY2, DAY3) },
      { start: '2026-04-01', ...DAY4 },
    ]);
    expect(months.body.data.totals).toEqual(sum(DAY1, DAY2, DAY3, DAY4));
    // Nothing outside the range: the week of day 3 alone.
    const later = await results('from=2026-03-09&to=2026-03-15&interval=week');
    expect(later.body.data.series).toEqual([{ start: '2026-03-09', ...DAY3 }]);
    expect(later.body.data.totals).toEqual(DAY3);
  });

  it('counts per offer, every offer of the catalogue listed, fundedAmount summed', async () => {
    const res = await results('from=2026-03-01&to=2026-04-30&interval=month');
    const offers = res.body.data.offers as ({ offerId: string; name: string } & Record<string, number>)[];
    expect(offers.find((o) => o.offerId === cardId)).toEqual({ offerId: cardId, name: 'Results Card', ...offerCounts(CARD) });
    expect(offers.find((o) => o.offerId === loanId)).toEqual({ offerId: loanId, name: 'Results Loan', ...offerCounts(LOAN) });
    const catalogue = await app.request('GET', '/v1/offers?status=all&limit=100', { token: await admin() });
    expect(offers.map((o) => o.offerId).sort()).toEqual(catalogue.body.data.map((o: { offerId: string }) => o.offerId).sort());
    for (const other of offers.filter((o) => o.offerId !== cardId && o.offerId !== loanId)) {
      expect(offerCounts(other as unknown as Counts)).toEqual(offerCounts(zero()));
    }
    // The offers' counts add up to the totals' offer metrics.
    expect(offerCounts(res.body.data.totals)).toEqual(offerCounts(sum(CARD, LOAN)));
  });

  it('for one offer: its counts and the program’s, nothing of the other offers', async () => {
    const res = await results(`from=2026-03-01&to=2026-04-30&interval=month&offerId=${cardId}`);
    expect(res.status).toBe(200);
    const program = sum(DAY1, DAY2, DAY3, DAY4);
    expect(res.body.data.totals).toEqual({
      ...program,
      ...offerCounts(CARD),
    });
    expect(res.body.data.offers).toEqual([{ offerId: cardId, name: 'Results Card', ...offerCounts(CARD) }]);
    expect(res.body.data.series.map((p: Counts) => p.funded)).toEqual([1, 0]);
  });

  it('gives the scores on record today by band: the verified customers’ current scores', async () => {
    const ratings = await Promise.all(
      (['a', 'b', 'c', 'd'] as const).map(async (who) => (await readScore(users[who].userId)).rating),
    );
    const bands = { very_poor: 0, poor: 0, fair: 0, good: 0, excellent: 0 } as Record<string, number>;
    for (const rating of ratings) bands[rating] = (bands[rating] ?? 0) + 1;
    const res = await results('from=2026-03-01&to=2026-03-01');
    expect(res.body.data.scores).toEqual({ bands, customers: 4, rose: 0 });
  });

  it('follows a new score: the customer moves band, and counts as having risen above their first score', async () => {
    const { score } = await readScore(users.a.userId);
    const target = score >= 800 ? 580 : 810;
    const refreshed = await app.request('POST', `/v1/sandbox/users/${users.a.userId}/score-refresh`, {
      token: await admin(),
      body: { score: target },
    });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const ratings = await Promise.all(
      (['a', 'b', 'c', 'd'] as const).map(async (who) => (await readScore(users[who].userId)).rating),
    );
    const bands = { very_poor: 0, poor: 0, fair: 0, good: 0, excellent: 0 } as Record<string, number>;
    for (const rating of ratings) bands[rating] = (bands[rating] ?? 0) + 1;
    const res = await results(`from=${D4}&to=${D4}`);
    expect(res.body.data.scores).toEqual({ bands, customers: 4, rose: target > score ? 1 : 0 });
  });

  it.each([
    ['to before from', 'from=2026-03-10&to=2026-03-09', ['query.to']],
    ['more than 366 days in all', 'from=2026-01-01&to=2027-01-02', ['query.to']],
    ['a date that does not exist', 'from=2026-02-30&to=2026-03-10', ['query.from']],
    ['a date that is not a date', 'from=2026-03-01&to=yesterday', ['query.to']],
    ['no from', 'to=2026-03-10', ['query.from']],
    ['an unknown interval', 'from=2026-03-01&to=2026-03-10&interval=year', ['query.interval']],
    ['an unknown parameter', 'from=2026-03-01&to=2026-03-10&colour=red', ['query.colour']],
  ])('refuses %s (400 naming the field)', async (_, query, fields) => {
    const res = await results(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(fields);
  });

  it('takes a range of 366 days in all, both ends included', async () => {
    const res = await results('from=2026-01-01&to=2027-01-01&interval=month');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The score reads of the tests above count as looks on the days they ran, so the totals are the daily series' own.
    const byDay = await results('from=2026-01-01&to=2027-01-01&interval=day');
    expect(byDay.body.data.series).toHaveLength(366);
    expect(res.body.data.totals).toEqual(byDay.body.data.totals);
    expect(res.body.data.totals.clicks).toBe(sum(DAY1, DAY2, DAY3, DAY4).clicks);
    expect(res.body.data.series).toHaveLength(13);
  });
});
