import type { TCreateOfferInput } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import { type ApiResponse, enrollment, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

/** A few hundred customers: enough for several audience pages and every rule to cut some out. */
const CUSTOMERS = 300;
const STATES = ['IL', 'WI', 'OH', 'CA', 'TX'] as const;
const LATE = new Set(['30', '60', '90', '120', 'charge_off']);

interface Customer {
  userId: string;
  externalUserId: string;
  state: string;
  score: number;
  /** Open card balances over open card limits, percent; null without an open card. */
  utilization: number | null;
  /** Calendar months from the oldest account's opening month to the pull's month. */
  fileAgeMonths: number | null;
  /** Months ago of the latest payment 30 days late or worse in the 24-month grids; null when none. */
  lateMonthsAgo: number | null;
  pulledAt: string;
}

interface Member {
  userId: string;
  externalUserId: string;
  apr: number;
  creditLimit: { min: number; max: number } | null;
  fileAsOf: string;
}

let app: TestApp;
let bank: TestClient;
let customers: Customer[];

const admin = () => app.currentToken(bank);

/** Runs `work` over `items`, `size` at a time. */
const pool = async <T, R>(items: readonly T[], size: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T, index);
      }
    }),
  );
  return results;
};

const monthIndex = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;

/** Passes identity verification with the sandbox's answer key. */
const verify = async (userId: string) => {
  const token = await admin();
  const questions = await app.request('GET', `/v1/users/${userId}/verification/questions`, { token });
  expect(questions.status, JSON.stringify(questions.body)).toBe(200);
  const { sessionId } = questions.body.data;
  const key = await app.request('GET', `/v1/sandbox/users/${userId}/verification/answers?sessionId=${sessionId}`, { token });
  const answered = await app.request('POST', `/v1/users/${userId}/verification/answers`, {
    token,
    body: { sessionId, answers: key.body.data.answers },
  });
  expect(answered.body.data?.verified, JSON.stringify(answered.body)).toBe(true);
};

/** What the offer rules read, worked out from the customer's own report and score as a partner would. */
const readCustomer = async (userId: string, externalUserId: string, state: string): Promise<Customer> => {
  const token = await admin();
  const report = await app.request('GET', `/v1/users/${userId}/credit-report`, { token });
  expect(report.status, JSON.stringify(report.body)).toBe(200);
  const score = await app.request('GET', `/v1/users/${userId}/credit-score`, { token });
  expect(score.status).toBe(200);
  const { accounts, pulledAt } = report.body.data as {
    pulledAt: string;
    accounts: {
      type: string;
      status: string;
      openedOn: string;
      balance: number;
      creditLimit: number | null;
      paymentHistory: { month: string; status: string }[];
    }[];
  };
  const cards = accounts.filter((a) => a.type === 'credit_card' && a.status === 'open' && (a.creditLimit ?? 0) > 0);
  const limit = cards.reduce((sum, a) => sum + (a.creditLimit ?? 0), 0);
  const balance = cards.reduce((sum, a) => sum + a.balance, 0);
  const opened = accounts
    .filter((a) => a.type !== 'collection')
    .map((a) => a.openedOn)
    .sort()[0];
  let lateMonthsAgo: number | null = null;
  for (const account of accounts) {
    for (const month of account.paymentHistory) {
      if (!LATE.has(month.status)) continue;
      const ago = monthIndex(pulledAt) - monthIndex(month.month);
      if (lateMonthsAgo === null || ago < lateMonthsAgo) lateMonthsAgo = ago;
    }
  }
  return {
    userId,
    externalUserId,
    state,
    score: score.body.data.score,
    utilization: limit > 0 ? (balance / limit) * 100 : null,
    fileAgeMonths: opened ? monthIndex(pulledAt) - monthIndex(opened) : null,
    lateMonthsAgo,
    pulledAt,
  };
};

/** The offer the audience is found for: a score range, every file rule and three states. */
const CAMPAIGN: TCreateOfferInput = {
  type: 'credit_card',
  name: 'Midwest Rewards Card',
  description: 'For customers with long, clean files in the Midwest.',
  aprType: 'variable',
  tiers: [
    { minScore: 640, maxScore: 719, apr: 22.49, creditLimit: { min: 1000, max: 6000 } },
    { minScore: 720, maxScore: 850, apr: 17.99, creditLimit: { min: 6000, max: 25000 } },
  ],
  rules: {
    minScore: 660,
    maxScore: 820,
    maxUtilization: 40,
    minFileAgeMonths: 180,
    noDelinquencyMonths: 12,
    states: ['IL', 'WI', 'OH'],
  },
  costs: { annualFee: 0 },
  applicationUrl: 'https://apply.midwestbank.test/cards/rewards?ref={clickId}',
  status: 'active',
};

const qualifies = (c: Customer, rules = CAMPAIGN.rules ?? {}) =>
  (rules.minScore === undefined || c.score >= rules.minScore) &&
  (rules.maxScore === undefined || c.score <= rules.maxScore) &&
  (rules.maxUtilization === undefined || c.utilization === null || c.utilization <= rules.maxUtilization) &&
  (rules.minFileAgeMonths === undefined || (c.fileAgeMonths !== null && c.fileAgeMonths >= rules.minFileAgeMonths)) &&
  (rules.noDelinquencyMonths === undefined || c.lateMonthsAgo === null || c.lateMonthsAgo >= rules.noDelinquencyMonths) &&
  (rules.states === undefined || (rules.states as readonly string[]).includes(c.state));

const tierOf = (score: number, offer = CAMPAIGN) => offer.tiers.find((t) => score >= t.minScore && score <= t.maxScore);

const memberOf = (c: Customer, offer = CAMPAIGN): Member => {
  const tier = tierOf(c.score, offer);
  return {
    userId: c.userId,
    externalUserId: c.externalUserId,
    apr: tier?.apr as number,
    creditLimit: tier?.creditLimit ?? null,
    fileAsOf: c.pulledAt,
  };
};

const expectedAudience = (offer = CAMPAIGN) =>
  customers
    .filter((c) => qualifies(c, offer.rules) && tierOf(c.score, offer))
    .map((c) => memberOf(c, offer))
    .sort((a, b) => (a.userId < b.userId ? -1 : 1));

const createOffer = async (input: TCreateOfferInput) => {
  const res = await app.request('POST', '/v1/offers', { token: await admin(), body: input });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.offerId as string;
};

/** Every page of an offer's audience, following the cursors; checks each page's pagination. */
const walkAudience = async (offerId: string, limit: number) => {
  const pages: ApiResponse[] = [];
  let cursor: string | null = null;
  do {
    const res: ApiResponse = await app.request(
      'GET',
      `/v1/offers/${offerId}/audience?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token: await admin() },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    expect(res.body.pagination.hasMore).toBe(res.body.pagination.nextCursor !== null);
    pages.push(res);
    cursor = res.body.pagination.nextCursor;
  } while (cursor && pages.length < 1000);
  const members = pages.flatMap((page) => page.body.data as Member[]);
  return { pages, members, totals: pages.map((page) => page.body.pagination.total as number) };
};

beforeAll(async () => {
  app = await startTestApp({ config: { RATE_LIMIT_USER_OPS_PER_MIN: '1000000' } });
  bank = await app.createClient({ name: 'Midwest Bank' });
  const people = Array.from({ length: CUSTOMERS }, (_, i) =>
    enrollment({
      // Ordinary sandbox files (not 0000, 9999 or a 10xx story), each a different person.
      ssn: String(2000 + ((i * 7919) % 7000)).padStart(4, '0'),
      dateOfBirth: `19${50 + (i % 45)}-0${1 + (i % 9)}-1${i % 9}`,
      address: {
        street: `${100 + i} Main St`,
        city: 'Springfield',
        state: STATES[i % STATES.length],
        zipCode: `6${String(1000 + i)}`,
      },
    }),
  );
  const batch = await app.request('POST', '/v1/users/enroll/batch', { token: await admin(), body: { users: people } });
  expect(batch.body.meta, JSON.stringify(batch.body)).toMatchObject({ successful: CUSTOMERS, failed: 0 });
  const enrolled = batch.body.data.successful as { userId: string; externalUserId: string }[];
  await pool(enrolled, 8, ({ userId }) => verify(userId));
  customers = await pool(enrolled, 8, ({ userId, externalUserId }, i) =>
    readCustomer(userId, externalUserId, people[i]?.address.state as string),
  );
  // Never in an audience: a frozen file (no file on record) and a customer who never passed verification.
  await enrolActiveUser(app, await admin(), { ssn: '0000', address: { ...people[0]?.address } });
  await enrolUser(app, await admin(), { ssn: '2468', address: { ...people[0]?.address } });
}, 120_000);
afterAll(() => app.close());

describe('GET /v1/offers/{offerId}/audience', () => {
  it('lists exactly the customers whose file on record meets every rule, with their tier', async () => {
    // The customers differ on every rule, so each rule cuts someone out that the others let in.
    const passing = (rule: keyof NonNullable<TCreateOfferInput['rules']>) =>
      customers.filter((c) => qualifies(c, { [rule]: CAMPAIGN.rules?.[rule] })).length;
    for (const rule of ['minScore', 'maxScore', 'maxUtilization', 'minFileAgeMonths', 'noDelinquencyMonths', 'states'] as const) {
      expect(passing(rule), rule).toBeGreaterThan(0);
      expect(passing(rule), rule).toBeLessThan(CUSTOMERS);
    }
    const expected = expectedAudience();
    expect(expected.length).toBeGreaterThan(10);

    const offerId = await createOffer(CAMPAIGN);
    const { members, totals } = await walkAudience(offerId, 100);
    expect(members).toEqual(expected);
    expect(new Set(totals)).toEqual(new Set([expected.length]));
  });

  it('pages with cursors: each customer exactly once, the same total on every page', async () => {
    const offerId = await createOffer({ ...CAMPAIGN, name: 'Midwest Rewards Card (paged)' });
    const expected = expectedAudience();
    for (const limit of [1, 7]) {
      const { pages, members, totals } = await walkAudience(offerId, limit);
      expect(pages).toHaveLength(Math.ceil(expected.length / limit));
      expect(members.map((m) => m.userId)).toEqual(expected.map((m) => m.userId));
      expect(new Set(members.map((m) => m.userId)).size).toBe(members.length);
      expect(totals.every((total) => total === expected.length)).toBe(true);
      expect(pages.at(-1)?.body.pagination).toMatchObject({ hasMore: false, nextCursor: null });
    }
    // A cursor is bound to its offer's list.
    const other = await createOffer({ ...CAMPAIGN, name: 'Midwest Rewards Card (other)' });
    const first = await app.request('GET', `/v1/offers/${offerId}/audience?limit=1`, { token: await admin() });
    const crossed = await app.request(
      'GET',
      `/v1/offers/${other}/audience?cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`,
      { token: await admin() },
    );
    expect(crossed.status).toBe(400);
    expect(crossed.body.error.details.map((d: { field: string }) => d.field)).toEqual(['cursor']);
  });

  it('an offer without rules takes every customer with a readable file, never a frozen or unverified one', async () => {
    const open: TCreateOfferInput = {
      ...CAMPAIGN,
      name: 'Everyone Card',
      rules: {},
      tiers: [{ minScore: 300, maxScore: 850, apr: 25, creditLimit: null }],
    };
    const offerId = await createOffer(open);
    const { members, totals } = await walkAudience(offerId, 100);
    expect(members).toEqual(expectedAudience(open));
    expect(members).toHaveLength(CUSTOMERS);
    expect(totals[0]).toBe(CUSTOMERS);
  });

  it('drops a customer who withdraws consent or is deleted', async () => {
    const offerId = await createOffer({ ...CAMPAIGN, name: 'Midwest Rewards Card (leavers)' });
    const before = expectedAudience();
    const [withdrawing, deleted] = before;
    const token = await admin();
    expect((await app.request('POST', `/v1/users/${withdrawing?.userId}/consent/withdraw`, { token })).status).toBe(200);
    expect((await app.request('DELETE', `/v1/users/${deleted?.userId}`, { token })).status).toBe(200);
    customers = customers.filter((c) => c.userId !== withdrawing?.userId && c.userId !== deleted?.userId);

    const { members, totals } = await walkAudience(offerId, 50);
    expect(members).toEqual(before.slice(2));
    expect(totals[0]).toBe(before.length - 2);
  });

  it('is on the audit trail: each listing, by whom and in which request', async () => {
    const offerId = await createOffer({ ...CAMPAIGN, name: 'Midwest Rewards Card (audited)' });
    const token = await admin();
    app.clock.advance(1000);
    const since = app.clock.now().toISOString();
    const listing = await app.request('GET', `/v1/offers/${offerId}/audience?limit=5`, { token });
    expect(listing.status).toBe(200);
    const trail = await app.request('GET', `/v1/audit-events?limit=100&from=${encodeURIComponent(since)}`, { token });
    expect(trail.status).toBe(200);
    const entry = (trail.body.data as { requestId: string | null; subject: Record<string, string> }[]).find(
      (e) => e.requestId === listing.body.meta.requestId,
    );
    expect(entry, 'an audit entry for the audience listing').toMatchObject({
      type: expect.stringMatching(/^(credit_data|personal_data)\.read$/),
      actor: { kind: 'client', id: bank.id },
      subject: expect.objectContaining({ operationId: 'listOfferAudience' }),
    });
  });

  it('reads the score the customer is shown: a new score moves them in or out, as on their own offers list', async () => {
    const offerId = await createOffer({ ...CAMPAIGN, name: 'Midwest Rewards Card (rescored)' });
    const rules = CAMPAIGN.rules ?? {};
    // One member whose score falls below the range, one customer whom only the score kept out, rising into it.
    const falling = customers.find((c) => qualifies(c) && tierOf(c.score)) as Customer;
    const rising = customers.find(
      (c) => !qualifies(c) && c.score < (rules.minScore ?? 0) && qualifies({ ...c, score: 700 }),
    ) as Customer;
    expect([falling, rising].every(Boolean)).toBe(true);
    const token = await admin();
    for (const [customer, score] of [
      [falling, 600],
      [rising, 700],
    ] as const) {
      const refreshed = await app.request('POST', `/v1/sandbox/users/${customer.userId}/score-refresh`, {
        token,
        body: { score },
      });
      expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
      const shown = await app.request('GET', `/v1/users/${customer.userId}/credit-score`, { token });
      expect(shown.body.data.score).toBe(score);
      customer.score = score;
      const own = await app.request('GET', `/v1/users/${customer.userId}/offers?limit=100`, { token });
      const listed = (own.body.data as { offerId: string; preQualified: boolean }[]).find((o) => o.offerId === offerId);
      expect(listed?.preQualified, `${customer.userId}'s own offers list at ${score}`).toBe(score === 700);
    }

    const { members } = await walkAudience(offerId, 100);
    expect(members).toEqual(expectedAudience());
    expect(members.map((m) => m.userId)).toContain(rising.userId);
    expect(members.map((m) => m.userId)).not.toContain(falling.userId);
  });

  it('answers 404 for an offer not in the catalogue', async () => {
    const res = await app.request('GET', '/v1/offers/off_notInTheCatalogue1/audience', { token: await admin() });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('POST /v1/offers/audience-preview', () => {
  const preview = async (input: Pick<TCreateOfferInput, 'type' | 'tiers' | 'rules'>) => {
    const res = await app.request('POST', '/v1/offers/audience-preview', { token: await admin(), body: input });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { qualifying: number; countedAt: string };
  };

  it('counts, as each rule changes, the customers the audience of the same terms would list', async () => {
    const { type, tiers } = CAMPAIGN;
    const rules = CAMPAIGN.rules ?? {};
    let previous = CUSTOMERS + 1;
    // Each rule added narrows the count to what a saved offer with the same rules would list.
    const some: NonNullable<TCreateOfferInput['rules']> = {};
    for (const rule of ['minScore', 'states', 'maxUtilization', 'minFileAgeMonths'] as const) {
      Object.assign(some, { [rule]: rules[rule] });
      const counted = await preview({ type, tiers, rules: some });
      expect(counted.qualifying, rule).toBe(expectedAudience({ ...CAMPAIGN, rules: some }).length);
      expect(counted.qualifying, rule).toBeLessThan(previous);
      previous = counted.qualifying;
    }
    const whole = await preview({ type, tiers, rules });
    const offerId = await createOffer({ ...CAMPAIGN, name: 'Midwest Rewards Card (previewed)' });
    const { totals } = await walkAudience(offerId, 100);
    expect(whole.qualifying).toBe(totals[0]);
    expect(whole.countedAt).toBe(app.clock.now().toISOString());
  });

  it('names nobody and stores nothing but its own read on the trail: no customer named, no offer in the catalogue', async () => {
    const token = await admin();
    const before = await app.request('GET', '/v1/offers?status=all&limit=100', { token });
    app.clock.advance(1000);
    const since = app.clock.now().toISOString();
    await preview({ type: 'credit_card', tiers: [{ minScore: 300, maxScore: 850, apr: 25 }] });
    const trail = await app.request('GET', `/v1/audit-events?limit=100&from=${encodeURIComponent(since)}`, { token });
    const entries = trail.body.data as { type: string; userId: string | null; subject: Record<string, unknown> }[];
    expect(entries.filter((e) => e.userId !== null)).toEqual([]);
    // The count is a read of the customers' files all the same: one entry, naming the operation.
    expect(entries.filter((e) => e.type === 'credit_data.read' && e.subject.operationId === 'previewOfferAudience')).toHaveLength(
      1,
    );
    const after = await app.request('GET', '/v1/offers?status=all&limit=100', { token });
    expect(after.body.data.length).toBe(before.body.data.length);
  });

  it('says which field is wrong: no tiers, a tier upside down, overlapping tiers, an unknown rule', async () => {
    const token = await admin();
    for (const body of [
      { type: 'credit_card', tiers: [] },
      { type: 'credit_card', tiers: [{ minScore: 800, maxScore: 700, apr: 5 }] },
      {
        type: 'credit_card',
        tiers: [
          { minScore: 600, maxScore: 750, apr: 20 },
          { minScore: 700, maxScore: 850, apr: 15 },
        ],
      },
      { type: 'credit_card', tiers: [{ minScore: 300, maxScore: 850, apr: 5 }], rules: { minIncome: 1 } },
      { tiers: [{ minScore: 300, maxScore: 850, apr: 5 }] },
    ]) {
      const res = await app.request('POST', '/v1/offers/audience-preview', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.length).toBeGreaterThan(0);
    }
  });
});
