import type { TCreateOfferInput, TOffer } from '@credit/contract';
import { type CreditClient, isCreditApiError } from '@credit/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let bank: TestClient;
let sdk: CreditClient;

const SAMPLE_NAMES = [
  'Cash Back Card',
  'Balance Transfer Card',
  'Secured Builder Card',
  'Debt Consolidation Loan',
  'Auto Refinance',
  '30-Year Fixed Refinance',
  '15-Year Fixed Refinance',
  'Student Loan Refinance',
];

beforeAll(async () => {
  app = await startTestApp();
  bank = await app.createClient({ name: 'Maple Bank (sandbox)' });
  sdk = app.sdk(bank);
});
afterAll(() => app.close());

/** A card with every kind of rule, two tiers and every card cost. */
const cardInput = (overrides: Partial<TCreateOfferInput> = {}): TCreateOfferInput => ({
  type: 'credit_card',
  name: 'Maple Rewards Card',
  description: '2% back on groceries, 1% on everything else.',
  aprType: 'variable',
  tiers: [
    { minScore: 670, maxScore: 739, apr: 24.99, creditLimit: { min: 1000, max: 5000 } },
    { minScore: 740, maxScore: 850, apr: 19.99, creditLimit: { min: 5000, max: 20000 } },
  ],
  rules: { minScore: 670, maxUtilization: 50, minFileAgeMonths: 24, noDelinquencyMonths: 12, states: ['IL', 'WI'] },
  costs: { annualFee: 95, balanceTransferFeePercent: 3, introApr: { apr: 0, months: 15 } },
  signupBonus: { amount: 200, requirement: 'Spend $500 in the first 3 months' },
  applicationUrl: 'https://apply.maplebank.test/cards/rewards?ref={clickId}&customer={externalUserId}',
  status: 'active',
  ...overrides,
});

/** A refinance loan: a term, an origination fee, one tier without a stated amount. */
const loanInput = (overrides: Partial<TCreateOfferInput> = {}): TCreateOfferInput => ({
  type: 'loan',
  name: 'Maple Consolidation Loan',
  description: 'One fixed payment for your cards and loans.',
  provider: 'Maple Lending',
  aprType: 'fixed',
  tiers: [{ minScore: 640, maxScore: 850, apr: 11.5 }],
  rules: { refinance: { accountKinds: ['credit_card', 'personal_loan'], minBalance: 2000, minAprAbove: 1 } },
  costs: { annualFee: 0, originationFeePercent: 2 },
  termMonths: 60,
  applicationUrl: 'https://apply.maplebank.test/loans/consolidation',
  status: 'active',
  ...overrides,
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

const catalogue = (status: 'all' | TOffer['status'] = 'all') =>
  sdk.list('listOffers', { query: { status, limit: 3 } }).toArray({ max: 1000 });

interface AuditEntry {
  type: string;
  actor: { kind: string; id: string };
  requestId: string | null;
  subject: Record<string, string>;
}

/** Every `offer.changed` entry of the bank's trail, oldest first (listing drains the spool first). */
const offerChanges = async (offerId?: string): Promise<AuditEntry[]> => {
  const token = await app.currentToken(bank);
  const entries: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const res: ApiResponse = await app.request(
      'GET',
      `/v1/audit-events?type=offer.changed&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    entries.push(...res.body.data);
    cursor = res.body.pagination.nextCursor;
  } while (cursor);
  return offerId ? entries.filter((e) => e.subject.offerId === offerId) : entries;
};

const storedOffers = async () =>
  Number((await app.db.query<{ n: string }>('select count(*) as n from offers where client_id = $1', [bank.id])).rows[0]?.n);

describe('the catalogue through the SDK', () => {
  it('starts a sandbox client with the sample catalogue under its own name, newest first', async () => {
    const offers = await catalogue('active');
    expect(offers.map((o) => o.name.replace(/^Maple Bank /, ''))).toEqual(SAMPLE_NAMES);
    expect(new Set(offers.map((o) => o.provider))).toEqual(new Set(['Maple Bank']));
    for (const offer of offers) {
      expect(offer).toMatchObject({ status: 'active', version: 1, preQualified: false, qualification: null });
      expect(offer.estimatedSavings).toBeNull();
    }
    // A second read gives nothing more.
    expect(await catalogue()).toHaveLength(SAMPLE_NAMES.length);
    expect(await storedOffers()).toBe(SAMPLE_NAMES.length);
  });

  it('creates an offer with rules, tiers and costs (version 1), and answers it whole on a get', async () => {
    const before = await catalogue();
    // Newest first: each offer created a second after the one before.
    app.clock.advance(1000);
    const created = await sdk.call('createOffer', { body: cardInput() });
    const now = app.clock.now().toISOString();
    expect(created).toEqual({
      offerId: expect.stringMatching(/^off_/),
      type: 'credit_card',
      provider: 'Maple Bank (sandbox)',
      name: 'Maple Rewards Card',
      description: '2% back on groceries, 1% on everything else.',
      apr: { min: 19.99, max: 24.99, type: 'variable' },
      creditLimit: { min: 1000, max: 20000 },
      annualFee: 95,
      signupBonus: { amount: 200, requirement: 'Spend $500 in the first 3 months' },
      preQualified: false,
      applicationUrl: 'https://apply.maplebank.test/cards/rewards?ref=%7BclickId%7D&customer=%7BexternalUserId%7D',
      status: 'active',
      startsAt: null,
      expiresAt: null,
      version: 1,
      termMonths: null,
      rules: { minScore: 670, maxUtilization: 50, minFileAgeMonths: 24, noDelinquencyMonths: 12, states: ['IL', 'WI'] },
      tiers: [
        { minScore: 670, maxScore: 739, apr: 24.99, creditLimit: { min: 1000, max: 5000 } },
        { minScore: 740, maxScore: 850, apr: 19.99, creditLimit: { min: 5000, max: 20000 } },
      ],
      costs: { annualFee: 95, originationFeePercent: null, balanceTransferFeePercent: 3, introApr: { apr: 0, months: 15 } },
      createdAt: now,
      updatedAt: now,
      qualification: null,
      estimatedSavings: null,
    });
    expect(await sdk.call('getOffer', { params: { offerId: created.offerId } })).toEqual(created);

    app.clock.advance(1000);
    const loan = await sdk.call('createOffer', { body: loanInput() });
    expect(loan).toMatchObject({
      type: 'loan',
      provider: 'Maple Lending',
      apr: { min: 11.5, max: 11.5, type: 'fixed' },
      creditLimit: null,
      termMonths: 60,
      signupBonus: null,
      tiers: [{ minScore: 640, maxScore: 850, apr: 11.5, creditLimit: null }],
      costs: { annualFee: 0, originationFeePercent: 2, balanceTransferFeePercent: null, introApr: null },
      rules: { refinance: { accountKinds: ['credit_card', 'personal_loan'], minBalance: 2000, minAprAbove: 1 } },
    });
    const after = await catalogue();
    expect(after.map((o) => o.offerId)).toEqual([loan.offerId, created.offerId, ...before.map((o) => o.offerId)]);
    const loans = await sdk.call('listOffers', { query: { type: 'loan', status: 'all' } });
    expect(loans.data.every((o) => o.type === 'loan')).toBe(true);
    expect(loans.data.map((o) => o.offerId)).toContain(loan.offerId);

    const changes = await offerChanges(created.offerId);
    expect(changes).toEqual([
      expect.objectContaining({
        type: 'offer.changed',
        actor: { kind: 'client', id: bank.id },
        subject: { offerId: created.offerId, change: 'created', version: '1' },
      }),
    ]);
  });

  it('updates: version + 1, createdAt kept, rules replaced whole, each change on the audit trail', async () => {
    const offer = await sdk.call('createOffer', { body: cardInput({ name: 'Maple Everyday Card' }) });
    app.clock.advance(60_000);
    const updated = await sdk.call('updateOffer', {
      params: { offerId: offer.offerId },
      body: { name: 'Maple Everyday Plus Card', rules: { minScore: 700 }, costs: { annualFee: 0 } },
    });
    expect(updated).toMatchObject({
      offerId: offer.offerId,
      name: 'Maple Everyday Plus Card',
      version: 2,
      createdAt: offer.createdAt,
      updatedAt: app.clock.now().toISOString(),
      rules: { minScore: 700 },
      annualFee: 0,
      costs: { annualFee: 0, originationFeePercent: null, balanceTransferFeePercent: null, introApr: null },
      tiers: offer.tiers,
      description: offer.description,
    });
    expect(updated.updatedAt).not.toBe(offer.updatedAt);
    expect(await sdk.call('getOffer', { params: { offerId: offer.offerId } })).toEqual(updated);

    app.clock.advance(60_000);
    const third = await sdk.call('updateOffer', {
      params: { offerId: offer.offerId },
      body: { expiresAt: '2099-01-01T00:00:00Z' },
    });
    expect(third).toMatchObject({ version: 3, createdAt: offer.createdAt, expiresAt: '2099-01-01T00:00:00.000Z' });

    const stored = await app.db.query<{ version: number }>(
      'select version from offer_versions where client_id = $1 and offer_id = $2 order by version',
      [bank.id, offer.offerId],
    );
    expect(stored.rows.map((r) => Number(r.version))).toEqual([1, 2, 3]);
    expect((await offerChanges(offer.offerId)).map((e) => [e.subject.change, e.subject.version])).toEqual([
      ['created', '1'],
      ['updated', '2'],
      ['updated', '3'],
    ]);
  });

  it('pauses, resumes and archives; the same transition twice changes nothing; archived is final (409)', async () => {
    const offer = await sdk.call('createOffer', { body: cardInput({ name: 'Maple Seasonal Card' }) });
    const id = { params: { offerId: offer.offerId } };
    const paused = await sdk.call('pauseOffer', id);
    expect(paused).toMatchObject({ status: 'paused', version: 2 });
    expect(await sdk.call('pauseOffer', id)).toEqual(paused);
    expect((await catalogue('paused')).map((o) => o.offerId)).toContain(offer.offerId);
    expect((await catalogue('active')).map((o) => o.offerId)).not.toContain(offer.offerId);

    expect(await sdk.call('resumeOffer', id)).toMatchObject({ status: 'active', version: 3 });
    const archived = await sdk.call('archiveOffer', id);
    expect(archived).toMatchObject({ status: 'archived', version: 4, createdAt: offer.createdAt });
    expect(await sdk.call('archiveOffer', id)).toEqual(archived);

    for (const [what, call] of [
      ['update', () => sdk.call('updateOffer', { ...id, body: { name: 'Revived' } })],
      ['resume', () => sdk.call('resumeOffer', id)],
      ['pause', () => sdk.call('pauseOffer', id)],
    ] as const) {
      const error = await failure(call());
      if (!isCreditApiError(error, 'OFFER_STATE_CONFLICT')) throw error;
      expect(error.status, what).toBe(409);
    }
    expect(await sdk.call('getOffer', id)).toEqual(archived);
    expect((await catalogue('archived')).map((o) => o.offerId)).toContain(offer.offerId);
    expect((await offerChanges(offer.offerId)).map((e) => [e.subject.change, e.subject.version])).toEqual([
      ['created', '1'],
      ['pause', '2'],
      ['resume', '3'],
      ['archive', '4'],
    ]);
  });

  it('keeps a draft back: it cannot be paused (409), resume publishes it', async () => {
    const draft = await sdk.call('createOffer', { body: loanInput({ name: 'Maple Draft Loan', status: 'draft' }) });
    expect(draft).toMatchObject({ status: 'draft', version: 1 });
    expect((await catalogue('active')).map((o) => o.offerId)).not.toContain(draft.offerId);
    expect((await catalogue('draft')).map((o) => o.offerId)).toEqual([draft.offerId]);
    const error = await failure(sdk.call('pauseOffer', { params: { offerId: draft.offerId } }));
    if (!isCreditApiError(error, 'OFFER_STATE_CONFLICT')) throw error;
    expect(error.status).toBe(409);
    expect(await sdk.call('getOffer', { params: { offerId: draft.offerId } })).toEqual(draft);

    const published = await sdk.call('resumeOffer', { params: { offerId: draft.offerId } });
    expect(published).toMatchObject({ status: 'active', version: 2 });
    expect((await catalogue('active')).map((o) => o.offerId)).toContain(draft.offerId);
    expect((await offerChanges(draft.offerId)).map((e) => e.subject.change)).toEqual(['created', 'resume']);
  });

  it('creates once per Idempotency-Key: a retry answers the same offer, another body with the key is a 409', async () => {
    const before = (await catalogue()).length;
    const body = cardInput({ name: 'Maple Idempotent Card' });
    const first = await sdk.call('createOffer', { body, idempotencyKey: 'create-card-1' });
    const again = await sdk.call('createOffer', { body, idempotencyKey: 'create-card-1' });
    expect(again).toEqual(first);
    const token = await app.currentToken(bank);
    const raw = await app.request('POST', '/v1/offers', { token, body, headers: { 'idempotency-key': 'create-card-1' } });
    expect(raw.status).toBe(201);
    expect(raw.headers.get('idempotent-replayed')).toBe('true');
    expect(raw.body.data).toEqual(first);
    expect((await catalogue()).length).toBe(before + 1);

    const error = await failure(
      sdk.call('createOffer', { body: { ...body, name: 'Another card' }, idempotencyKey: 'create-card-1' }),
    );
    if (!isCreditApiError(error, 'IDEMPOTENCY_CONFLICT')) throw error;
    expect(error.status).toBe(409);
    expect((await catalogue()).length).toBe(before + 1);
    expect(await offerChanges(first.offerId)).toHaveLength(1);
  });
});

describe('refused input: 400 naming the field, nothing written', () => {
  const tierAt = (minScore: number, maxScore: number) => ({ minScore, maxScore, apr: 20 });
  const cases: [string, unknown, string[]][] = [
    ['overlapping tiers', cardInput({ tiers: [tierAt(600, 700), tierAt(700, 850)] }), ['tiers']],
    ['a loan without termMonths', { ...loanInput(), termMonths: undefined }, ['termMonths']],
    [
      'expiresAt before startsAt',
      cardInput({ startsAt: '2030-06-01T00:00:00Z', expiresAt: '2030-05-01T00:00:00Z' }),
      ['expiresAt'],
    ],
    ['an http:// application URL', cardInput({ applicationUrl: 'http://apply.maplebank.test/cards' }), ['applicationUrl']],
    [
      'an unknown placeholder',
      cardInput({ applicationUrl: 'https://apply.maplebank.test/cards?ref={clickId}&x={foo}' }),
      ['applicationUrl'],
    ],
    ['a tier below 300', cardInput({ tiers: [tierAt(299, 700)] }), ['tiers.0.minScore']],
    ['a tier above 850', cardInput({ tiers: [tierAt(300, 700), tierAt(701, 851)] }), ['tiers.1.maxScore']],
    ['an unknown field', { ...cardInput(), colour: 'gold' }, ['colour']],
    ['an unknown rule', cardInput({ rules: { minScore: 600, maxIncome: 1 } as never }), ['rules.maxIncome']],
  ];

  it.each(cases)('%s', async (_, body, fields) => {
    const offers = await catalogue();
    const changes = (await offerChanges()).length;
    const stored = await storedOffers();
    const error = await failure(sdk.call('createOffer', { body: body as TCreateOfferInput }));
    if (!isCreditApiError(error, 'VALIDATION_ERROR')) throw error;
    expect(error.status).toBe(400);
    expect(error.details.map((d) => d.field)).toEqual(fields);
    expect(await catalogue()).toEqual(offers);
    expect(await storedOffers()).toBe(stored);
    expect((await offerChanges()).length).toBe(changes);
  });

  it('refuses an update that would break the offer, keeping its version', async () => {
    const loan = await sdk.call('createOffer', { body: loanInput({ name: 'Maple Strict Loan' }) });
    const id = { params: { offerId: loan.offerId } };
    for (const [body, field] of [
      [{ tiers: [tierAt(600, 700), tierAt(650, 850)] }, 'tiers'],
      [{ termMonths: null }, 'termMonths'],
      [{ startsAt: '2031-01-01T00:00:00Z', expiresAt: '2030-01-01T00:00:00Z' }, 'expiresAt'],
      [{ applicationUrl: 'https://apply.maplebank.test/{foo}' }, 'applicationUrl'],
      [{ name: 'Renamed', colour: 'gold' }, 'colour'],
    ] as const) {
      const error = await failure(sdk.call('updateOffer', { ...id, body: body as never }));
      if (!isCreditApiError(error, 'VALIDATION_ERROR')) throw error;
      expect(
        error.details.map((d) => d.field),
        JSON.stringify(body),
      ).toEqual([field]);
    }
    const empty = await failure(sdk.call('updateOffer', { ...id, body: {} }));
    expect(isCreditApiError(empty, 'VALIDATION_ERROR')).toBe(true);
    expect(await sdk.call('getOffer', id)).toEqual(loan);
    expect(await offerChanges(loan.offerId)).toHaveLength(1);
  });

  it('answers 404 for an offer id that is not in the catalogue, 400 for one that is not an offer id', async () => {
    const missing = await failure(sdk.call('getOffer', { params: { offerId: 'off_notInTheCatalogue1' } }));
    expect(isCreditApiError(missing, 'NOT_FOUND')).toBe(true);
    for (const call of [
      () => sdk.call('updateOffer', { params: { offerId: 'off_notInTheCatalogue1' }, body: { name: 'x' } }),
      () => sdk.call('pauseOffer', { params: { offerId: 'off_notInTheCatalogue1' } }),
      () => sdk.call('archiveOffer', { params: { offerId: 'off_notInTheCatalogue1' } }),
    ]) {
      expect(isCreditApiError(await failure(call()), 'NOT_FOUND')).toBe(true);
    }
    const malformed = await failure(sdk.call('getOffer', { params: { offerId: 'offer-1' } }));
    if (!isCreditApiError(malformed, 'VALIDATION_ERROR')) throw malformed;
    expect(malformed.details.map((d) => d.field)).toEqual(['path.offerId']);
  });
});
