import { CONSENT_HISTORY_LIMIT, EVENT_ENVELOPE_SCHEMAS } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxBureau } from '../src/bureau/sandbox/sandbox-bureau.ts';
import { type Dispatcher, startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { runHousekeeping } from '../src/worker.ts';
import { countingBureau } from './helpers/counting-bureau.ts';
import { enrolActiveUser, enrolUser, partnerConsent } from './helpers/credit-users.ts';
import { enrollment, productionEnv, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { openTestDb } from './helpers/test-db.ts';
import { type Receiver, startReceiver, waitFor } from './helpers/webhook-receiver.ts';

const DAY = 86_400_000;
const SECRET = 'whsec_consent_0123456789abcdef';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) ConsentTest/1.0';

// The sandbox bureau, counting the pulls that reach it: a refusal must happen before any.
let app: TestApp;
let client: TestClient;
let receiver: Receiver;
let dispatcher: Dispatcher;
const counting = countingBureau();
const tok = () => app.currentToken(client);

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({ bureau: counting.bureau, config: { WEBHOOK_CA_FILE: receiver.caFile } });
  dispatcher = startDispatcher(app.ctx, { poll: false });
  client = await app.createClient();
});
afterAll(async () => {
  await dispatcher.stop();
  await app.close();
  await receiver.close();
});

const consentOf = async (userId: string, token?: string) =>
  app.request('GET', `/v1/users/${userId}/consent`, { token: token ?? (await tok()) });
const grant = async (userId: string, body: Record<string, unknown>, token?: string, headers: Record<string, string> = {}) =>
  app.request('POST', `/v1/users/${userId}/consent`, { token: token ?? (await tok()), body, headers });
const withdraw = async (userId: string, token?: string, headers: Record<string, string> = {}) =>
  app.request('POST', `/v1/users/${userId}/consent/withdraw`, { token: token ?? (await tok()), headers });
const monitoringOf = async (userId: string) =>
  (await app.request('GET', `/v1/users/${userId}`, { token: await tok() })).body.data.monitoring;
const externalIdOf = async (userId: string) =>
  (await app.request('GET', `/v1/users/${userId}`, { token: await tok() })).body.data.externalUserId as string;
const currentTerms = () => app.ctx.config.CONSENT_TERMS_VERSION;

describe('enrolment in the sandbox', () => {
  it('records an enrolment without consent as sandbox_default, says so, and GET …/consent shows it', async () => {
    const res = await app.request('POST', '/v1/users/enroll', { token: await tok(), body: enrollment() });
    expect(res.status).toBe(201);
    expect(res.body.data.consent).toMatchObject({ method: 'sandbox_default', termsVersion: currentTerms() });
    const state = await consentOf(res.body.data.userId);
    expect(state.status).toBe(200);
    expect(state.body.data).toMatchObject({
      userId: res.body.data.userId,
      reconsentRequired: false,
      terms: {
        currentVersion: currentTerms(),
        disclosureTextId: `consent-disclosure-${currentTerms()}`,
        requiresReconsent: false,
        validityDays: 365,
      },
      current: {
        consentId: res.body.data.consent.consentId,
        status: 'active',
        method: 'sandbox_default',
        purpose: 'credit_monitoring',
        recipients: ['Credit API', expect.stringMatching(/^Test bank/)],
        acceptedAt: app.clock.now().toISOString(),
        expiresAt: '9999-12-31T00:00:00.000Z',
        withdrawnAt: null,
        ipAddress: null,
        userAgent: null,
      },
    });
    expect(state.body.data.history).toHaveLength(1);
  });

  it('records a supplied consent as given, with its IP address and user agent sealed at rest', async () => {
    const acceptedAt = new Date(app.clock.now().getTime() - 2 * DAY).toISOString();
    const consent = partnerConsent(app, { acceptedAt, ipAddress: '198.51.100.23', userAgent: BROWSER });
    const res = await app.request('POST', '/v1/users/enroll', { token: await tok(), body: enrollment({ consent }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.consent).toMatchObject({
      method: 'partner_attested',
      expiresAt: new Date(Date.parse(acceptedAt) + 365 * DAY).toISOString(),
    });
    const { rows } = await app.db.query<{ ip_address_enc: string; user_agent_enc: string }>(
      'select ip_address_enc, user_agent_enc from consents where user_id = $1',
      [res.body.data.userId],
    );
    expect(rows[0]?.ip_address_enc).toMatch(/^v1\./);
    expect(JSON.stringify(rows)).not.toContain('198.51.100.23');
    expect(JSON.stringify(rows)).not.toContain('ConsentTest');
    const state = await consentOf(res.body.data.userId);
    expect(state.body.data.current).toMatchObject({ acceptedAt, ipAddress: '198.51.100.23', userAgent: BROWSER });
  });

  it('refuses a consent under other terms, from the future, already expired, or claiming sandbox_default', async () => {
    const now = app.clock.now().getTime();
    const cases: [Record<string, unknown>, string][] = [
      [partnerConsent(app, { termsVersion: '1999-01-01' }), 'consent.termsVersion'],
      [partnerConsent(app, { acceptedAt: new Date(now + DAY).toISOString() }), 'consent.acceptedAt'],
      [partnerConsent(app, { acceptedAt: new Date(now - 400 * DAY).toISOString() }), 'consent.acceptedAt'],
      [partnerConsent(app, { method: 'sandbox_default' }), 'consent.method'],
      [partnerConsent(app, { ipAddress: 'not an ip' }), 'consent.ipAddress'],
    ];
    for (const [consent, field] of cases) {
      const res = await app.request('POST', '/v1/users/enroll', { token: await tok(), body: enrollment({ consent }) });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });
});

describe('no pull without consent', () => {
  it('refuses score, history, offers, an offer click, refresh now and verification with 403 CONSENT_REQUIRED, pulling nothing', async () => {
    const userId = await enrolActiveUser(app, await tok(), { ssn: '1001' });
    const offers = await app.request('GET', `/v1/users/${userId}/offers`, { token: await tok() });
    expect(offers.status).toBe(200);
    const offerId = offers.body.data[0].offerId as string;
    expect((await withdraw(userId)).status).toBe(200);

    const pending = await enrolUser(app, await tok());
    expect((await withdraw(pending)).status).toBe(200);

    const pullsBefore = counting.total();
    const routes: [string, string, unknown?][] = [
      ['GET', `/v1/users/${userId}/credit-score`],
      ['GET', `/v1/users/${userId}/credit-score/history`],
      ['POST', `/v1/users/${userId}/credit-score/refresh`],
      ['GET', `/v1/users/${userId}/offers`],
      ['POST', `/v1/users/${userId}/offers/${offerId}/click`, { source: 'dashboard' }],
      ['GET', `/v1/users/${userId}/verification/questions`],
      ['GET', `/v1/users/${pending}/verification/questions`],
      // The sandbox helpers that pull are refused the same way.
      ['POST', `/v1/sandbox/users/${userId}/score-refresh`, { score: 742 }],
      ['POST', `/v1/sandbox/users/${userId}/alerts`, { type: 'new_inquiry' }],
    ];
    for (const [method, path, body] of routes) {
      const res = await app.request(method, path, { token: await tok(), ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(res.body.error.code).toBe('CONSENT_REQUIRED');
    }
    expect(counting.total()).toBe(pullsBefore);

    // What was already raised stays readable: reading stored alerts pulls nothing.
    expect((await app.request('GET', `/v1/users/${userId}/alerts`, { token: await tok() })).status).toBe(200);

    // Consent again, and the same routes work.
    expect((await grant(userId, { termsVersion: currentTerms(), method: 'partner_attested' })).status).toBe(201);
    expect((await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await tok() })).status).toBe(200);
    expect((await app.request('POST', `/v1/users/${userId}/credit-score/refresh`, { token: await tok() })).status).toBe(200);
    expect(counting.total()).toBeGreaterThan(pullsBefore);
  });

  it('stops at expiry: monitoring shows consent_expired and reads are refused until the consent is renewed', async () => {
    // A supplied consent expires (the sandbox default does not: older integrations keep working on test clocks).
    const userId = await enrolActiveUser(app, await tok(), { consent: partnerConsent(app) });
    const lasting = await enrolActiveUser(app, await tok());
    expect((await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await tok() })).status).toBe(200);
    app.clock.advance(366 * DAY);
    expect((await monitoringOf(lasting)).status).toBe('active');
    expect(await monitoringOf(userId)).toMatchObject({ status: 'paused', pausedReason: 'consent_expired', nextRefreshAt: null });
    const refused = await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await tok() });
    expect(refused.body.error?.code).toBe('CONSENT_REQUIRED');
    const state = await consentOf(userId);
    expect(state.body.data).toMatchObject({ current: null, reconsentRequired: true });
    expect(state.body.data.history[0].status).toBe('expired');
    // Nothing current to withdraw: the answer is the same state, and the reason stays `consent_expired`.
    expect((await withdraw(userId)).body.data.history[0].status).toBe('expired');
    expect((await monitoringOf(userId)).pausedReason).toBe('consent_expired');

    const renewed = await grant(userId, { termsVersion: currentTerms(), method: 'partner_attested' });
    expect(renewed.status).toBe(201);
    expect(renewed.body.data.current.expiresAt).toBe(new Date(app.clock.now().getTime() + 365 * DAY).toISOString());
    expect((await monitoringOf(userId)).status).toBe('active');
    expect((await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await tok() })).status).toBe(200);
  });
});

describe('the history a consent state lists', () => {
  it(`lists the ${CONSENT_HISTORY_LIMIT} most recent records, so renewing in a loop does not make each answer dearer`, async () => {
    const userId = await enrolUser(app, await tok());
    const given: string[] = [];
    for (let i = 0; i < CONSENT_HISTORY_LIMIT + 2; i++) {
      app.clock.advance(1000);
      const res = await grant(userId, partnerConsent(app));
      expect(res.status).toBe(201);
      given.push(res.body.data.current.consentId);
    }
    const { history } = (await consentOf(userId)).body.data;
    // The newest first, the current one included; the sandbox default and the two oldest renewals fall off the list.
    expect(history.map((r: { consentId: string }) => r.consentId)).toEqual(given.slice(2).reverse());
    expect(history[0].status).toBe('active');
    const { rows } = await app.db.query<{ n: number }>('select count(*)::int as n from consents where user_id = $1', [userId]);
    expect(rows[0]?.n).toBe(CONSENT_HISTORY_LIMIT + 3);

    // A renewal dated before all of those (a deleted test clock hands its users back to real time, which is earlier):
    // it is still the current one, and listed first, though 25 others are newer by time.
    const later = app.clock.now();
    app.clock.set(new Date(later.getTime() - 30_000));
    try {
      const renewed = await grant(userId, partnerConsent(app));
      expect(renewed.status).toBe(201);
      const state = (await consentOf(userId)).body.data;
      expect(state.current.consentId).toBe(renewed.body.data.current.consentId);
      expect(state.reconsentRequired).toBe(false);
      expect(state.history).toHaveLength(CONSENT_HISTORY_LIMIT);
      expect(state.history[0].consentId).toBe(state.current.consentId);
    } finally {
      app.clock.set(later);
    }
  });
});

describe('GET …/consent/history', () => {
  const history = async (userId: string, query: string, token?: string) =>
    app.request('GET', `/v1/users/${userId}/consent/history${query}`, { token: token ?? (await tok()) });
  const idsOf = (records: { consentId: string }[]) => records.map((r) => r.consentId);

  it('pages through every record in the order they were recorded, whatever the clock said', async () => {
    const userId = await enrolUser(app, await tok());
    const enrolled = idsOf((await consentOf(userId)).body.data.history);
    const given: string[] = [];
    const start = app.clock.now();
    try {
      for (let i = 0; i < CONSENT_HISTORY_LIMIT + 2; i++) {
        // Every third renewal with the clock held still, and one set back: the order is still the order of recording.
        if (i % 3 !== 0) app.clock.advance(1000);
        if (i === 10) app.clock.set(new Date(app.clock.now().getTime() - 60_000));
        const res = await grant(userId, partnerConsent(app));
        expect(res.status).toBe(201);
        given.push(res.body.data.current.consentId);
      }
    } finally {
      app.clock.set(new Date(Math.max(app.clock.now().getTime(), start.getTime())));
    }
    const everyRecord = [...enrolled, ...given];

    const pages: { consentId: string; status: string }[][] = [];
    let cursor: string | null = null;
    do {
      const res = await history(userId, `?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(everyRecord.length);
      pages.push(res.body.data);
      cursor = res.body.pagination.nextCursor;
    } while (cursor);
    expect(pages.map((page) => page.length)).toEqual([10, 10, 8]);
    const newestFirst = pages.flat();
    expect(idsOf(newestFirst)).toEqual([...everyRecord].reverse());
    expect(newestFirst.map((r) => r.status)).toEqual(['active', ...everyRecord.slice(1).map(() => 'superseded')]);
    // The consent state lists the same records, the most recent first, up to its bound.
    expect(idsOf((await consentOf(userId)).body.data.history)).toEqual(idsOf(newestFirst).slice(0, CONSENT_HISTORY_LIMIT));

    const oldestFirst = await history(userId, '?sort=recordedAt&limit=100');
    expect(idsOf(oldestFirst.body.data)).toEqual(everyRecord);
    // A cursor opens the list and order it was made for only.
    const firstPage = await history(userId, '?limit=5');
    const elsewhere = await history(
      userId,
      `?sort=recordedAt&cursor=${encodeURIComponent(firstPage.body.pagination.nextCursor)}`,
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('shows a user’s records to that user’s token and to the partner that enrolled them, to no one else', async () => {
    const token = await tok();
    const userId = await enrolUser(app, token);
    const other = await enrolUser(app, token);
    const ownToken = await app.userToken(token, await externalIdOf(userId));
    const own = await history(userId, '', ownToken);
    expect(own.status).toBe(200);
    expect((await history(other, '', ownToken)).status).toBe(404);
    // The records carry where and in which browser consent was given: reading them is in the audit trail.
    const audit = await app.request('GET', `/v1/audit-events?userId=${userId}&type=personal_data.read`, { token });
    expect(audit.body.data).toContainEqual(
      expect.objectContaining({ requestId: own.body.meta.requestId, subject: { operationId: 'listConsentHistory' } }),
    );
    const stranger = await app.createClient();
    const strangerToken = await app.token(stranger);
    const res = await history(userId, '', strangerToken);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('withdrawal', () => {
  it('says the consent was withdrawn when the withdrawn record is the last recorded, though not the latest by time', async () => {
    const userId = await enrolUser(app, await tok());
    expect((await grant(userId, partnerConsent(app))).status).toBe(201);
    // A clock set back (a deleted test clock hands its users back to real time): renew, then withdraw.
    const later = app.clock.now();
    app.clock.set(new Date(later.getTime() - 60_000));
    try {
      expect((await grant(userId, partnerConsent(app))).status).toBe(201);
      expect((await withdraw(userId)).status).toBe(200);
      expect(await monitoringOf(userId)).toMatchObject({ status: 'paused', pausedReason: 'consent_withdrawn' });
    } finally {
      app.clock.set(later);
    }
  });

  it('from the widget: monitoring pauses at once and consent.withdrawn reaches the partner’s HTTPS receiver, once', async () => {
    const token = await tok();
    const hook = await app.request('POST', '/v1/webhooks', {
      token,
      body: { url: `${receiver.url}/c/${client.id}`, events: ['consent.withdrawn'], secret: SECRET },
    });
    expect(hook.status).toBe(201);
    const userId = await enrolActiveUser(app, token);
    expect((await monitoringOf(userId)).status).toBe('active');
    const externalUserId = await externalIdOf(userId);
    const userToken = await app.userToken(token, externalUserId);
    const consentId = (await consentOf(userId)).body.data.current.consentId as string;

    const res = await withdraw(userId, userToken);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ current: null, reconsentRequired: true });
    expect(res.body.data.history[0]).toMatchObject({
      consentId,
      status: 'withdrawn',
      withdrawnAt: app.clock.now().toISOString(),
    });
    expect(await monitoringOf(userId)).toMatchObject({
      status: 'paused',
      pausedReason: 'consent_withdrawn',
      nextRefreshAt: null,
    });
    const { rows } = await app.db.query<{ consent_valid_until: Date | null }>(
      'select consent_valid_until from users where id = $1',
      [userId],
    );
    expect(rows[0]?.consent_valid_until).toBeNull();

    // Withdrawing again changes nothing and sends nothing more.
    expect((await withdraw(userId)).body.data.history).toHaveLength(1);

    await dispatcher.runOnce();
    const mine = () => receiver.received.filter((d) => d.body.data.userId === userId);
    const delivery = (await waitFor(() => (mine().length > 0 ? mine() : undefined)))?.[0];
    expect(delivery?.body).toMatchObject({
      type: 'consent.withdrawn',
      data: { userId, externalUserId, consentId, withdrawnAt: app.clock.now().toISOString() },
    });
    expect(EVENT_ENVELOPE_SCHEMAS['consent.withdrawn'].safeParse(delivery?.body).success).toBe(true);
    await dispatcher.runOnce();
    expect(mine()).toHaveLength(1);

    // The consumer consents again in the widget: recorded as `widget`, at our time, with the request's browser.
    const backdated = new Date(app.clock.now().getTime() - 30 * DAY).toISOString();
    const again = await grant(
      userId,
      { termsVersion: currentTerms(), method: 'partner_attested', userAgent: 'claimed by the body', acceptedAt: backdated },
      userToken,
      { 'user-agent': BROWSER },
    );
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.data.current).toMatchObject({
      method: 'widget',
      userAgent: BROWSER,
      ipAddress: expect.any(String),
      acceptedAt: app.clock.now().toISOString(),
    });
    expect((await monitoringOf(userId)).status).toBe('active');
  });

  it('refuses a user token for another user: 404 for reading, granting and withdrawing, and nothing changes', async () => {
    const token = await tok();
    const mine = await enrolActiveUser(app, token);
    const theirs = await enrolActiveUser(app, token);
    const userToken = await app.userToken(token, await externalIdOf(mine));
    for (const res of [
      await consentOf(theirs, userToken),
      await grant(theirs, { termsVersion: currentTerms(), method: 'widget' }, userToken),
      await withdraw(theirs, userToken),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await consentOf(theirs)).body.data).toMatchObject({ reconsentRequired: false, history: [{ status: 'active' }] });
    expect((await consentOf(mine, userToken)).status).toBe(200);
  });

  it('keeps the whole history, most recent first: renewal supersedes, withdrawal ends', async () => {
    const userId = await enrolUser(app, await tok());
    app.clock.advance(DAY);
    const renewed = await grant(userId, {
      termsVersion: currentTerms(),
      method: 'partner_attested',
      ipAddress: '2001:db8::7',
      userAgent: BROWSER,
    });
    expect(renewed.status).toBe(201);
    app.clock.advance(DAY);
    await withdraw(userId);
    const state = (await consentOf(userId)).body.data;
    expect(state.current).toBeNull();
    expect(state.history.map((r: { method: string; status: string }) => [r.method, r.status])).toEqual([
      ['partner_attested', 'withdrawn'],
      ['sandbox_default', 'superseded'],
    ]);
    expect(state.history[0]).toMatchObject({ ipAddress: '2001:db8::7', userAgent: BROWSER });
  });
});

describe('deleting the user', () => {
  it('purges the IP address and user agent of their consents with their other personal data, and keeps the records', async () => {
    const consent = partnerConsent(app, { ipAddress: '192.0.2.44', userAgent: BROWSER });
    const enrolled = await app.request('POST', '/v1/users/enroll', { token: await tok(), body: enrollment({ consent }) });
    const userId = enrolled.body.data.userId as string;
    expect((await app.request('DELETE', `/v1/users/${userId}`, { token: await tok() })).status).toBe(200);
    app.clock.advance((app.ctx.config.USER_PURGE_AFTER_DAYS + 1) * DAY);
    await runHousekeeping(app.ctx);
    const { rows } = await app.db.query('select method, ip_address_enc, user_agent_enc from consents where user_id = $1', [
      userId,
    ]);
    expect(rows).toEqual([{ method: 'partner_attested', ip_address_enc: null, user_agent_enc: null }]);
  });
});

describe('production', () => {
  let prod: TestApp;
  let prodClient: TestClient;
  beforeAll(async () => {
    prod = await startTestApp({ config: productionEnv(), bureau: new SandboxBureau() });
    prodClient = await prod.createClient();
  });
  afterAll(() => prod.close());

  it('refuses an enrolment without consent (400 naming consent), single and batch, and records one that has it', async () => {
    const token = await prod.token(prodClient);
    const bare = await prod.request('POST', '/v1/users/enroll', { token, body: enrollment() });
    expect(bare.status).toBe(400);
    expect(bare.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'consent' }] });
    expect(Number((await prod.db.query('select count(*)::int as n from users')).rows[0]?.n)).toBe(0);

    const batch = await prod.request('POST', '/v1/users/enroll/batch', {
      token,
      body: { users: [enrollment(), enrollment({ consent: partnerConsent(prod) })] },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.data.failed).toEqual([
      {
        index: 0,
        externalUserId: expect.any(String),
        error: expect.objectContaining({ details: [expect.objectContaining({ field: 'consent' })] }),
      },
    ]);
    expect(batch.body.data.successful[0].consent).toMatchObject({ method: 'partner_attested' });

    const userId = await enrolUser(prod, token);
    expect((await prod.request('GET', `/v1/users/${userId}/consent`, { token })).body.data.current.method).toBe(
      'partner_attested',
    );
  });
});

describe('a new terms version', () => {
  it('requiring re-consent pauses users consented under the old one until they accept the new one', async () => {
    const db = await openTestDb();
    const v1 = await startTestApp({ db, keepDb: true });
    const c = await v1.createClient();
    const userId = await enrolActiveUser(v1, await v1.token(c));
    await v1.close();

    // Published without requiring re-consent: the old consent still counts.
    const v2soft = await startTestApp({ db, keepDb: true, config: { CONSENT_TERMS_VERSION: '2027-01-01' } });
    let token = await v2soft.token(c);
    expect((await v2soft.request('GET', `/v1/users/${userId}/credit-score`, { token })).status).toBe(200);
    await v2soft.close();

    const v2 = await startTestApp({
      db,
      config: { CONSENT_TERMS_VERSION: '2027-01-01', CONSENT_TERMS_REQUIRE_RECONSENT: 'true' },
    });
    try {
      token = await v2.token(c);
      const user = await v2.request('GET', `/v1/users/${userId}`, { token });
      expect(user.body.data.monitoring).toMatchObject({ status: 'paused', pausedReason: 'consent_required' });
      const score = await v2.request('GET', `/v1/users/${userId}/credit-score`, { token });
      expect(score.body.error?.code).toBe('CONSENT_REQUIRED');
      const state = (await v2.request('GET', `/v1/users/${userId}/consent`, { token })).body.data;
      expect(state).toMatchObject({
        current: null,
        reconsentRequired: true,
        terms: { currentVersion: '2027-01-01', requiresReconsent: true },
        history: [{ status: 'superseded', termsVersion: '2026-11-25' }],
      });

      const old = await v2.request('POST', `/v1/users/${userId}/consent`, {
        token,
        body: { termsVersion: '2026-11-25', method: 'partner_attested' },
      });
      expect(old.status).toBe(400);
      expect(old.body.error.details[0].field).toBe('termsVersion');
      const accepted = await v2.request('POST', `/v1/users/${userId}/consent`, {
        token,
        body: { termsVersion: '2027-01-01', method: 'partner_attested' },
      });
      expect(accepted.status).toBe(201);
      expect((await v2.request('GET', `/v1/users/${userId}/credit-score`, { token })).status).toBe(200);
      expect((await v2.request('GET', `/v1/users/${userId}`, { token })).body.data.monitoring.status).toBe('active');
    } finally {
      await v2.close();
    }
  });
});
