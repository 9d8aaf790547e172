import type { TCreditReport, TOffer, TOfferQualification } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;
const tok = () => app.currentToken(client);

beforeAll(async () => {
  app = await startTestApp();
  // Sandbox files change with the date: a fixed day keeps each identity's file, and so which offers it meets.
  app.clock.set('2026-11-23T10:00:00.000Z');
  client = await app.createClient({ name: 'Maple Bank' });
});
afterAll(() => app.close());

type Account = TCreditReport['accounts'][number];
type Reason = TOfferQualification['reasons'][number];

const offersOf = async (userId: string, query = '?limit=100', token?: string) =>
  app.request('GET', `/v1/users/${userId}/offers${query}`, { token: token ?? (await tok()) });
const offerList = async (userId: string, query = '?limit=100', token?: string): Promise<TOffer[]> => {
  const res = await offersOf(userId, query, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const reportOf = async (userId: string): Promise<TCreditReport> => {
  const res = await app.request('GET', `/v1/users/${userId}/credit-report`, { token: await tok() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const scoreOf = async (userId: string): Promise<number> => {
  const res = await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await tok() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.score;
};
const setScore = async (userId: string, score: number) => {
  const res = await app.request('POST', `/v1/sandbox/users/${userId}/score-refresh`, { token: await tok(), body: { score } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const create = async (body: Record<string, unknown>, as?: TestClient): Promise<TOffer> => {
  const res = await app.request('POST', '/v1/offers', {
    token: await app.currentToken(as ?? client),
    body: { description: 'An offer the tests add.', applicationUrl: 'https://apply.maple.test/x?c={clickId}', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

// ----- What the rules should find, worked out here from the report, the score and the enrolled state -----

const LATE = new Set(['30', '60', '90', '120', 'charge_off']);

/** Monthly payments made by `day`: one due each month on the opening day, or the 28th when it opened later. */
const paymentsMade = (openedOn: string, day: string) => {
  const dueDay = Math.min(28, Number(openedOn.slice(8, 10)));
  const months =
    (Number(day.slice(0, 4)) - Number(openedOn.slice(0, 4))) * 12 + Number(day.slice(5, 7)) - Number(openedOn.slice(5, 7));
  return Math.max(0, months - (Number(day.slice(8, 10)) < dueDay ? 1 : 0));
};

interface Facts {
  score: number;
  utilization: number | null;
  fileAgeMonths: number | null;
  monthsSinceDelinquency: number | null;
  everLate: boolean;
  state: string;
  /** Open accounts with a balance, an APR and, for loans, payments still to make. */
  refinanceable: Account[];
}

const factsOf = (report: TCreditReport, score: number, state: string): Facts => {
  const lines = report.accounts.filter((a) => a.type !== 'collection');
  const cards = lines.filter((a) => a.type === 'credit_card' && a.closedOn === null && (a.creditLimit ?? 0) > 0);
  const limit = cards.reduce((sum, a) => sum + (a.creditLimit ?? 0), 0);
  const balance = cards.reduce((sum, a) => sum + a.balance, 0);
  const oldest = lines.map((a) => a.openedOn).sort()[0];
  const pulled = new Date(report.pulledAt);
  const late = lines.flatMap((a) => {
    const i = a.paymentHistory.findIndex((m) => LATE.has(m.status));
    return i >= 0 ? [i] : [];
  });
  return {
    score,
    utilization: limit > 0 ? Math.round((balance / limit) * 1000) / 10 : null,
    fileAgeMonths: oldest
      ? (pulled.getUTCFullYear() - Number(oldest.slice(0, 4))) * 12 + pulled.getUTCMonth() + 1 - Number(oldest.slice(5, 7))
      : null,
    monthsSinceDelinquency: late.length > 0 ? Math.min(...late) : null,
    everLate: lines.some((a) => a.latePayments > 0),
    state,
    refinanceable: lines.filter(
      (a) =>
        a.status === 'open' &&
        a.closedOn === null &&
        a.apr !== null &&
        a.balance > 0 &&
        (a.type === 'credit_card' || (a.termMonths !== null && a.termMonths - paymentsMade(a.openedOn, report.reportDate) > 0)),
    ),
  };
};

type ExpectedReason = Omit<Reason, 'message'>;

/** Each rule of the offer, in the contract's order, as the file on record meets it. */
/** The loan a refinance takes (an origination fee comes out of it) or the balance a transfer moves (its fee added). */
const financed = (offer: TOffer, balance: number) =>
  (balance / (1 - (offer.costs.originationFeePercent ?? 0) / 100)) * (1 + (offer.costs.balanceTransferFeePercent ?? 0) / 100);

const expectedQualification = (offer: TOffer, facts: Facts) => {
  const { rules } = offer;
  const reasons: ExpectedReason[] = [];
  const { minScore, maxScore } = rules;
  if (minScore !== undefined || maxScore !== undefined) {
    reasons.push({
      rule: 'score',
      met: (minScore === undefined || facts.score >= minScore) && (maxScore === undefined || facts.score <= maxScore),
      actual: facts.score,
      required: minScore !== undefined && maxScore !== undefined ? `${minScore}-${maxScore}` : ((minScore ?? maxScore) as number),
    });
  }
  if (rules.maxUtilization !== undefined) {
    reasons.push({
      rule: 'utilization',
      met: facts.utilization === null || facts.utilization <= rules.maxUtilization,
      actual: facts.utilization,
      required: rules.maxUtilization,
    });
  }
  if (rules.minFileAgeMonths !== undefined) {
    reasons.push({
      rule: 'file_age',
      met: facts.fileAgeMonths !== null && facts.fileAgeMonths >= rules.minFileAgeMonths,
      actual: facts.fileAgeMonths,
      required: rules.minFileAgeMonths,
    });
  }
  if (rules.noDelinquencyMonths !== undefined) {
    const months = rules.noDelinquencyMonths;
    // The report shows 24 months: beyond them, only an account's count of late payments over its life tells.
    const met = facts.monthsSinceDelinquency === null ? months <= 24 || !facts.everLate : facts.monthsSinceDelinquency >= months;
    reasons.push({ rule: 'delinquency', met, actual: facts.monthsSinceDelinquency, required: months });
  }
  if (rules.states) {
    reasons.push({
      rule: 'state',
      met: rules.states.includes(facts.state as never),
      actual: facts.state,
      required: rules.states.join(','),
    });
  }
  const tier = offer.tiers.find((t) => facts.score >= t.minScore && facts.score <= t.maxScore);
  if (rules.refinance) {
    const rule = rules.refinance;
    const candidates = tier
      ? facts.refinanceable.filter(
          (a) =>
            (rule.accountKinds as readonly string[]).includes(a.type) &&
            a.balance >= (rule.minBalance ?? 0) &&
            (a.apr ?? 0) > tier.apr &&
            (a.apr ?? 0) >= tier.apr + (rule.minAprAbove ?? 0) &&
            // What the offer would lend or carry for the balance, fees included, within the tier's amount.
            (!tier.creditLimit ||
              (financed(offer, a.balance) >= tier.creditLimit.min && financed(offer, a.balance) <= tier.creditLimit.max)),
        )
      : [];
    reasons.push({
      rule: 'refinance',
      met: candidates.length > 0,
      actual: candidates.length,
      required: rule.accountKinds.join(','),
    });
  }
  reasons.push({
    rule: 'tier',
    met: tier !== undefined,
    actual: facts.score,
    required: offer.tiers.map((t) => `${t.minScore}-${t.maxScore}`).join(','),
  });
  return {
    qualifies: reasons.every((r) => r.met),
    apr: tier?.apr ?? null,
    creditLimit: tier?.creditLimit ?? null,
    reasons,
  };
};

/** Every offer's qualification is the file's, qualifying offers come first, the best match first within each group. */
const expectConsistentWithFile = (offers: TOffer[], facts: Facts) => {
  for (const offer of offers) {
    const q = offer.qualification as TOfferQualification;
    expect(q, offer.name).not.toBeNull();
    expect({ ...q, reasons: q.reasons.map(({ message: _, ...reason }) => reason) }, offer.name).toEqual(
      expectedQualification(offer, facts),
    );
    expect(offer.preQualified).toBe(q.qualifies);
    for (const reason of q.reasons) {
      expect(reason.message.length, offer.name).toBeGreaterThan(0);
      if (reason.rule === 'score') expect(reason.message).toContain(String(facts.score));
    }
    if (!q.qualifies) expect(offer.estimatedSavings, offer.name).toBeNull();
  }
  const firstNotQualified = offers.findIndex((o) => !o.preQualified);
  if (firstNotQualified >= 0) expect(offers.slice(firstNotQualified).every((o) => !o.preQualified)).toBe(true);
  const saved = offers.filter((o) => o.preQualified).map((o) => o.estimatedSavings?.totalCostChange ?? 0);
  expect(saved).toEqual([...saved].sort((a, b) => a - b));
  const unmet = offers.filter((o) => !o.preQualified).map((o) => o.qualification?.reasons.filter((r) => !r.met).length ?? 0);
  expect(unmet).toEqual([...unmet].sort((a, b) => a - b));
};

const FILES: [string, Record<string, unknown>][] = [
  ['the harness’s identity', {}],
  ['another identity', { firstName: 'Alex', lastName: 'Morgan', ssn: '4321', dateOfBirth: '1979-11-02' }],
  ['costly credit worth refinancing (1004)', { ssn: '1004', lastName: 'Costly' }],
  ['a second costly file (1004)', { ssn: '1004', lastName: 'Pricey' }],
  ['a quiet file (1002)', { ssn: '1002' }],
];

describe('GET /v1/users/{userId}/offers', () => {
  let custom: TOffer[];
  beforeAll(async () => {
    // Rules the sample catalogue leaves out: states, a score ceiling, a long clean record on an old file.
    custom = [
      await create({
        type: 'credit_card',
        name: 'Maple Midwest Card',
        aprType: 'variable',
        tiers: [{ minScore: 600, maxScore: 850, apr: 21.5 }],
        rules: { states: ['IL', 'WI'] },
      }),
      await create({
        type: 'loan',
        name: 'Maple Texas Loan',
        aprType: 'fixed',
        termMonths: 48,
        tiers: [{ minScore: 600, maxScore: 850, apr: 10.5, creditLimit: { min: 1000, max: 25000 } }],
        rules: { minScore: 600, states: ['TX'] },
      }),
      await create({
        type: 'credit_card',
        name: 'Maple Rebuild Card',
        aprType: 'variable',
        tiers: [{ minScore: 300, maxScore: 669, apr: 26.99, creditLimit: { min: 300, max: 1000 } }],
        rules: { maxScore: 669 },
      }),
      await create({
        type: 'credit_card',
        name: 'Maple Clean Record Card',
        aprType: 'variable',
        tiers: [
          { minScore: 650, maxScore: 749, apr: 23.49 },
          { minScore: 750, maxScore: 850, apr: 17.49, creditLimit: { min: 5000, max: 25000 } },
        ],
        rules: { minScore: 650, maxScore: 850, maxUtilization: 30, minFileAgeMonths: 120, noDelinquencyMonths: 36 },
      }),
    ];
  });

  it.each(FILES)('qualifies %s by the file on record, reason by reason, qualifying offers first', async (_, identity) => {
    const userId = await enrolActiveUser(app, await tok(), identity);
    const [offers, report, score] = [await offerList(userId), await reportOf(userId), await scoreOf(userId)];
    const catalogue = (await app.request('GET', '/v1/offers?limit=100', { token: await tok() })).body.data as TOffer[];
    expect(offers.map((o) => o.offerId).sort()).toEqual(catalogue.map((o) => o.offerId).sort());
    expect(offers.length).toBe(8 + custom.length);
    // Enrolled in IL (the harness's address): the Midwest card's state rule holds, the Texas loan's does not.
    expectConsistentWithFile(offers, factsOf(report, score, 'IL'));
    const byName = new Map(offers.map((o) => [o.name, o]));
    expect(byName.get('Maple Midwest Card')?.qualification?.reasons[0]).toMatchObject({ rule: 'state', met: true });
    expect(byName.get('Maple Texas Loan')?.preQualified).toBe(false);
    expect(byName.get('Maple Bank Secured Builder Card')?.preQualified).toBe(true);
  });

  it('splits the sandbox’s files: some offers qualify one customer and not another', async () => {
    const qualifying: Set<string>[] = [];
    for (const [, identity] of FILES) {
      const userId = await enrolActiveUser(app, await tok(), identity);
      qualifying.push(new Set((await offerList(userId)).filter((o) => o.preQualified).map((o) => o.name)));
    }
    const sizes = qualifying.map((s) => s.size);
    expect(new Set(sizes).size).toBeGreaterThan(1);
    const everyone = [...(qualifying[0] ?? [])].filter((name) => qualifying.every((s) => s.has(name)));
    expect(everyone).toContain('Maple Bank Secured Builder Card');
    expect(qualifying.some((s) => s.has('Maple Bank Cash Back Card'))).toBe(true);
    expect(qualifying.some((s) => !s.has('Maple Bank Cash Back Card'))).toBe(true);
  });

  it('follows the score when it changes: the score read is the one the rules use', async () => {
    const userId = await enrolActiveUser(app, await tok(), { firstName: 'Alex', lastName: 'Morgan', ssn: '4321' });
    const report = await reportOf(userId);

    await setScore(userId, 520);
    expect(await scoreOf(userId)).toBe(520);
    const poor = await offerList(userId);
    expectConsistentWithFile(poor, factsOf(report, 520, 'IL'));
    expect(
      poor
        .filter((o) => o.preQualified)
        .map((o) => o.name)
        .sort(),
    ).toEqual(['Maple Bank Secured Builder Card', 'Maple Rebuild Card']);
    // The Midwest card has no state problem here, but no rate for 520 either.
    const midwest = poor.find((o) => o.name === 'Maple Midwest Card')?.qualification?.reasons;
    expect(midwest?.map((r) => [r.rule, r.met])).toEqual([
      ['state', true],
      ['tier', false],
    ]);
    const cashBack = poor.find((o) => o.name === 'Maple Bank Cash Back Card');
    expect(cashBack?.qualification?.reasons[0]).toMatchObject({ rule: 'score', met: false, actual: 520, required: 680 });
    expect(cashBack?.qualification?.apr).toBeNull();

    await setScore(userId, 790);
    const good = await offerList(userId);
    expectConsistentWithFile(good, factsOf(report, 790, 'IL'));
    expect(good.find((o) => o.name === 'Maple Rebuild Card')?.preQualified).toBe(false);
    const card = good.find((o) => o.name === 'Maple Bank Cash Back Card');
    expect(card?.qualification).toMatchObject({ apr: 19.99, creditLimit: { min: 5000, max: 15000 } });
  });

  it('shows only what customers see now: not drafts, paused or archived offers; expired ones on request', async () => {
    const userId = await enrolActiveUser(app, await tok(), { ssn: '4321', firstName: 'Alex', lastName: 'Morgan' });
    const before = (await offerList(userId)).map((o) => o.offerId);
    const draft = await create({
      type: 'credit_card',
      name: 'Maple Draft Card',
      aprType: 'variable',
      tiers: [{ minScore: 300, maxScore: 850, apr: 20 }],
      status: 'draft',
    });
    const toPause = await create({ type: 'credit_card', name: 'Maple Pause Card', aprType: 'fixed', tiers: draft.tiers });
    const toArchive = await create({ type: 'credit_card', name: 'Maple Gone Card', aprType: 'fixed', tiers: draft.tiers });
    const later = await create({
      type: 'credit_card',
      name: 'Maple Spring Card',
      aprType: 'fixed',
      tiers: draft.tiers,
      startsAt: new Date(app.clock.now().getTime() + 30 * 86_400_000).toISOString(),
    });
    const expiring = await create({
      type: 'loan',
      name: 'Maple Holiday Loan',
      aprType: 'fixed',
      termMonths: 24,
      tiers: draft.tiers,
      expiresAt: new Date(app.clock.now().getTime() + 3600_000).toISOString(),
    });
    for (const [offer, verb] of [
      [toPause, 'pause'],
      [toArchive, 'archive'],
    ] as const) {
      const res = await app.request('POST', `/v1/offers/${offer.offerId}/${verb}`, { token: await tok() });
      expect(res.status).toBe(200);
    }
    const shown = (await offerList(userId)).map((o) => o.offerId);
    expect(shown.sort()).toEqual([...before, expiring.offerId].sort());

    const started = app.clock.now();
    try {
      app.clock.advance(2 * 3600_000);
      const active = (await offerList(userId)).map((o) => o.offerId);
      expect(active.sort()).toEqual([...before].sort());
      const expired = await offerList(userId, '?status=expired');
      expect(expired.map((o) => o.offerId)).toEqual([expiring.offerId]);
      expect(expired[0]).toMatchObject({ status: 'expired', preQualified: true });
      const all = await offerList(userId, '?status=all&limit=100');
      expect(all.map((o) => o.offerId).sort()).toEqual([...before, expiring.offerId].sort());
      for (const hidden of [draft, toPause, toArchive, later]) {
        expect(all.map((o) => o.offerId)).not.toContain(hidden.offerId);
      }

      const loans = await offerList(userId, '?type=loan&status=all');
      expect(loans.length).toBeGreaterThan(0);
      expect(loans.every((o) => o.type === 'loan')).toBe(true);
      expect(loans.map((o) => o.offerId)).toContain(expiring.offerId);
      expect((await offerList(userId, '?type=mortgage')).map((o) => o.name).sort()).toEqual([
        'Maple Bank 15-Year Fixed Refinance',
        'Maple Bank 30-Year Fixed Refinance',
      ]);
    } finally {
      app.clock.set(started);
    }
    for (const offer of [toPause, toArchive, expiring, draft, later]) {
      await app.request('POST', `/v1/offers/${offer.offerId}/archive`, { token: await tok() });
    }
  });

  it('keeps a paused offer hidden from customers after its expiresAt passes, under every status', async () => {
    const userId = await enrolActiveUser(app, await tok(), { ssn: '4321', firstName: 'Alex', lastName: 'Morgan' });
    const hidden = await create({
      type: 'credit_card',
      name: 'Maple Withdrawn Card',
      aprType: 'fixed',
      tiers: [{ minScore: 300, maxScore: 850, apr: 20 }],
      expiresAt: new Date(app.clock.now().getTime() + 3600_000).toISOString(),
    });
    expect((await app.request('POST', `/v1/offers/${hidden.offerId}/pause`, { token: await tok() })).status).toBe(200);
    const started = app.clock.now();
    try {
      app.clock.advance(2 * 3600_000);
      // The bank's catalogue reads it as expired; its customers were never shown it and are not now.
      const catalogue = await app.request('GET', '/v1/offers?status=expired', { token: await tok() });
      expect(catalogue.body.data.map((o: TOffer) => o.offerId)).toContain(hidden.offerId);
      for (const status of ['active', 'expired', 'all']) {
        const offers = await offerList(userId, `?status=${status}&limit=100`);
        expect(
          offers.map((o) => o.offerId),
          status,
        ).not.toContain(hidden.offerId);
      }
    } finally {
      app.clock.set(started);
      await app.request('POST', `/v1/offers/${hidden.offerId}/archive`, { token: await tok() });
    }
  });

  it('never shows another client’s offers, and shows that client’s users only its own', async () => {
    const other = await app.createClient({ name: 'Birch Credit Union' });
    const theirs = await create(
      {
        type: 'credit_card',
        name: 'Birch Everyone Card',
        aprType: 'variable',
        tiers: [{ minScore: 300, maxScore: 850, apr: 15 }],
      },
      other,
    );
    const mine = await enrolActiveUser(app, await tok());
    const myOffers = await offerList(mine);
    expect(myOffers.map((o) => o.offerId)).not.toContain(theirs.offerId);
    expect(myOffers.every((o) => o.provider === 'Maple Bank')).toBe(true);

    const otherToken = await app.currentToken(other);
    const theirUser = await enrolActiveUser(app, otherToken);
    const theirOffers = await offerList(theirUser, '?limit=100', otherToken);
    const theirCatalogue = (await app.request('GET', '/v1/offers?limit=100', { token: otherToken })).body.data as TOffer[];
    expect(theirOffers.map((o) => o.offerId).sort()).toEqual(theirCatalogue.map((o) => o.offerId).sort());
    expect(theirOffers.map((o) => o.offerId)).toContain(theirs.offerId);
    expect(theirOffers.every((o) => o.provider === 'Birch Credit Union')).toBe(true);
    expect(theirOffers.some((o) => myOffers.some((m) => m.offerId === o.offerId))).toBe(false);
  });

  it('pages through the ranked list; a cursor only works for its user and filters', async () => {
    const userId = await enrolActiveUser(app, await tok(), { ssn: '1004', lastName: 'Dearer' });
    const other = await enrolActiveUser(app, await tok());
    const full = (await offerList(userId)).map((o) => o.offerId);
    const seen: string[] = [];
    let cursor: string | null = null;
    let first: string | null = null;
    do {
      const res: { status: number; body: { data: TOffer[]; pagination: { nextCursor: string | null; total: number } } } =
        await offersOf(userId, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(full.length);
      seen.push(...res.body.data.map((o) => o.offerId));
      cursor = res.body.pagination.nextCursor;
      first ??= cursor;
    } while (cursor);
    expect(seen).toEqual(full);

    const token = await tok();
    for (const [path, query] of [
      [`/v1/users/${other}/offers`, `?limit=3&cursor=${first}`],
      [`/v1/users/${userId}/offers`, `?limit=3&type=loan&cursor=${first}`],
      [`/v1/users/${userId}/offers`, `?limit=3&status=all&cursor=${first}`],
      [`/v1/users/${userId}/offers`, `?limit=3&cursor=${first?.slice(0, -2)}xx`],
      ['/v1/offers', `?limit=3&cursor=${first}`],
    ]) {
      const res = await app.request('GET', `${path}${query}`, { token });
      expect(res.status, `${path}${query}`).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'cursor', message: expect.any(String) }]);
    }
  });

  it.each([
    ['type=boat', 'query.type'],
    ['status=maybe', 'query.status'],
    ['status=draft', 'query.status'],
    ['limit=0', 'query.limit'],
    ['limit=101', 'query.limit'],
    ['sort=name', 'query.sort'],
  ])('rejects %s with 400 naming %s', async (query, field) => {
    const userId = await enrolUser(app, await tok());
    const res = await offersOf(userId, `?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
  });
});

describe('who may read a user’s offers', () => {
  it('answers 403 USER_NOT_ENROLLED before verification', async () => {
    const userId = await enrolUser(app, await tok());
    const res = await offersOf(userId);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('USER_NOT_ENROLLED');
  });

  it('answers 403 CREDIT_FROZEN for a frozen file (sandbox ssn 0000)', async () => {
    const userId = await enrolActiveUser(app, await tok(), { ssn: '0000' });
    const res = await offersOf(userId);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CREDIT_FROZEN');
    expect(JSON.stringify(res.body)).not.toContain('Maple Bank');
  });

  it('hides another client’s user (404) and needs the offers scope (403)', async () => {
    const userId = await enrolActiveUser(app, await tok());
    const otherClient = await app.createClient();
    const foreign = await offersOf(userId, '', await app.token(otherClient));
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await offersOf('usr_doesNotExist0000000', '')).status).toBe(404);

    const noOffers = await offersOf(userId, '', await app.token(client, 'read write'));
    expect(noOffers.status).toBe(403);
    expect(noOffers.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect((await offersOf(userId, '', await app.token(client, 'offers'))).status).toBe(200);
    expect((await app.request('GET', `/v1/users/${userId}/offers`)).status).toBe(401);
  });

  it('lets a user token read its own user’s offers, and not another user’s (404)', async () => {
    const mine = await enrolActiveUser(app, await tok(), { externalUserId: 'offers-self-1' });
    const theirs = await enrolActiveUser(app, await tok(), { externalUserId: 'offers-self-2' });
    const userToken = await app.userToken(await tok(), 'offers-self-1');
    const own = await offersOf(mine, '?limit=100', userToken);
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual(await offerList(mine));
    const other = await offersOf(theirs, '', userToken);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('NOT_FOUND');

    const stranger = await app.createClient();
    const strangerToken = await app.userToken(await app.token(stranger), 'offers-self-1');
    const crossed = await offersOf(mine, '', strangerToken);
    expect(crossed.status).toBe(404);
  });
});
