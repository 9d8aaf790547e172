import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BureauProvider } from '../src/bureau/provider.ts';
import { SandboxBureau } from '../src/bureau/sandbox/sandbox-bureau.ts';
import { verifyChain } from '../src/modules/audit/service.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { runHousekeeping } from '../src/worker.ts';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import { type ApiResponse, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

interface AuditEvent {
  eventId: string;
  sequence: number;
  type: string;
  actor: { kind: string; id: string };
  userId: string | null;
  requestId: string | null;
  subject: Record<string, string>;
  occurredAt: string;
}

/** The options of every pull that reached the sandbox bureau underneath the audit trail's wrapper. */
const optionsAtTheBureau: unknown[] = [];
const sandbox = new SandboxBureau();
const bureau = new Proxy(sandbox, {
  get(target, property) {
    const value = Reflect.get(target, property);
    if (property !== 'pullCreditFile' && property !== 'pullIdentityFile') {
      return typeof value === 'function' ? value.bind(target) : value;
    }
    return (...args: Parameters<BureauProvider['pullCreditFile']>) => {
      optionsAtTheBureau.push(args[2]);
      return value.apply(target, args);
    };
  },
});

describe('GET /v1/audit-events and what the API records', () => {
  let app: TestApp;
  let bank: TestClient;
  let rival: TestClient;
  let admin: string;
  let rivalAdmin: string;
  let userId: string;
  const answered: { requestId: string; type: string }[] = [];

  /** Every page of the trail, following the cursors. */
  const allEvents = async (token: string, query = '', limit = 2): Promise<AuditEvent[]> => {
    const events: AuditEvent[] = [];
    let cursor: string | null = null;
    do {
      const res: ApiResponse = await app.request(
        'GET',
        `/v1/audit-events?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      events.push(...res.body.data);
      cursor = res.body.pagination.nextCursor;
      expect(res.body.pagination.hasMore).toBe(cursor !== null);
    } while (cursor);
    return events;
  };

  beforeAll(async () => {
    app = await startTestApp({ bureau });
    bank = await app.createClient();
    rival = await app.createClient();
    admin = await app.token(bank);
    rivalAdmin = await app.token(rival);
    userId = await enrolActiveUser(app, admin, { externalUserId: 'cust-audited' });
    for (const path of [`/v1/users/${userId}/credit-score`, `/v1/users/${userId}`, `/v1/users/${userId}/credit-score`]) {
      const res = await app.request('GET', path, { token: admin });
      expect(res.status).toBe(200);
      answered.push({
        requestId: res.body.meta.requestId,
        type: path.endsWith('score') ? 'credit_data.read' : 'personal_data.read',
      });
    }
    // The rival reads its own user: its entries are its own.
    const rivalUser = await enrolUser(app, rivalAdmin);
    expect((await app.request('GET', `/v1/users/${rivalUser}`, { token: rivalAdmin })).status).toBe(200);
  });
  afterAll(() => app.close());

  it('records each answered read of credit or personal data with its request id, caller and user', async () => {
    const events = await allEvents(admin, '', 100);
    for (const { requestId, type } of answered) {
      const entry = events.find((e) => e.requestId === requestId && e.type === type);
      expect(entry, `entry for ${requestId}`).toMatchObject({ actor: { kind: 'client', id: bank.id }, userId });
    }
    expect(events.find((e) => e.requestId === answered[0]?.requestId && e.type === 'credit_data.read')?.subject).toEqual({
      operationId: 'getCreditScore',
    });
    // The token exchange and the bureau pulls behind verification and the score are there too.
    expect(events.some((e) => e.type === 'token.minted' && e.actor.kind === 'client')).toBe(true);
    const pulls = events.filter((e) => e.type === 'bureau.pull');
    expect(pulls.some((p) => p.subject.file === 'identity' && p.userId === userId && p.requestId)).toBe(true);
    expect(pulls.some((p) => p.subject.file === 'credit' && p.userId === userId && p.requestId)).toBe(true);
    // No personal data: nothing but ids and names of things.
    // (Ids and hashes are random and may hold any digits: they are masked before looking for Jane's ssn and birth year.)
    const masked = JSON.stringify(events).replace(/"[a-z]{3}_[A-Za-z0-9_]+"|"[0-9a-f]{64}"/g, '"<id>"');
    expect(masked).not.toMatch(/Jane|Doe|example\.test|1234|1985/);
  });

  it('pages in sequence order without gaps or repeats, and never shows another client’s entries', async () => {
    const paged = await allEvents(admin);
    expect(paged.map((e) => e.sequence)).toEqual(paged.map((_, i) => i + 1));
    const whole = await app.request('GET', '/v1/audit-events?limit=100', { token: admin });
    expect(whole.body.pagination.total).toBe(paged.length);
    const rivals = await allEvents(rivalAdmin, '', 3);
    expect(rivals.length).toBeGreaterThan(0);
    expect(rivals.every((e) => !paged.some((p) => p.eventId === e.eventId))).toBe(true);
    expect(rivals.every((e) => e.userId !== userId && !answered.some((a) => a.requestId === e.requestId))).toBe(true);
    // Filtering by the bank's user from the rival finds nothing, and the bank's cursor does not open the rival's list.
    expect(await allEvents(rivalAdmin, `&userId=${userId}`)).toEqual([]);
    const first = await app.request('GET', '/v1/audit-events?limit=1', { token: admin });
    const crossed = await app.request(
      'GET',
      `/v1/audit-events?limit=1&cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`,
      {
        token: rivalAdmin,
      },
    );
    expect(crossed.status).toBe(400);
  });

  it('filters by user, type and time window', async () => {
    const all = await allEvents(admin, '', 100);
    const reads = await allEvents(admin, '&type=credit_data.read');
    expect(reads.length).toBe(all.filter((e) => e.type === 'credit_data.read').length);
    expect(reads.every((e) => e.type === 'credit_data.read')).toBe(true);
    const aboutUser = await allEvents(admin, `&userId=${userId}`);
    expect(aboutUser.length).toBe(all.filter((e) => e.userId === userId).length);
    const middle = all[Math.floor(all.length / 2)] as AuditEvent;
    const from = await allEvents(admin, `&from=${encodeURIComponent(middle.occurredAt)}`);
    expect(from.length).toBe(all.filter((e) => e.occurredAt >= middle.occurredAt).length);
    const to = await allEvents(admin, `&to=${encodeURIComponent(middle.occurredAt)}`);
    expect(to.length + from.length).toBe(all.length);
  });

  it('is for the admin scope; a user token’s reads are recorded as the user’s', async () => {
    const readOnly = await app.token(bank, 'read');
    expect((await app.request('GET', '/v1/audit-events', { token: readOnly })).status).toBe(403);
    const userToken = await app.userToken(admin, 'cust-audited');
    const read = await app.request('GET', `/v1/users/${userId}/credit-score`, { token: userToken });
    expect(read.status).toBe(200);
    expect((await app.request('GET', '/v1/audit-events', { token: userToken })).status).toBe(403);
    const events = await allEvents(admin, `&type=credit_data.read&userId=${userId}`, 100);
    const actor = events.find((e) => e.requestId === read.body.meta.requestId)?.actor;
    expect(actor?.kind).toBe('user_token');
    // The token is named by a reference, never by the partner's customer id (which outlives a purge in the chain).
    expect(actor?.id).toMatch(/^utk_[0-9a-f]{24}$/);
    const minted = (await allEvents(admin, '&type=token.minted', 100)).filter((e) => e.subject.tokenKind === 'user');
    expect(minted.some((e) => e.subject.tokenRef === actor?.id)).toBe(true);
    expect(JSON.stringify(await allEvents(admin, '', 100))).not.toContain('cust-audited');
  });

  it('records a user deleted, then purged, and a webhook secret rotated, by whom and in which request', async () => {
    const leaving = await enrolUser(app, admin);
    const deleted = await app.request('DELETE', `/v1/users/${leaving}`, { token: admin });
    expect(deleted.status).toBe(200);
    const hook = await app.request('POST', '/v1/webhooks', {
      token: admin,
      body: { url: 'https://127.0.0.1:9/hooks', events: ['user.deleted'], secret: 'whsec_first_secret_0123456789abcdef' },
    });
    expect(hook.status).toBe(201);
    const webhookId = hook.body.data.webhookId as string;
    const rotated = await app.request('PATCH', `/v1/webhooks/${webhookId}`, {
      token: admin,
      body: { secret: 'whsec_second_secret_0123456789abcdef' },
    });
    expect(rotated.status).toBe(200);
    app.clock.advance((app.ctx.config.USER_PURGE_AFTER_DAYS + 1) * 86_400_000);
    await runHousekeeping(app.ctx);
    const events = await allEvents(await app.currentToken(bank), '', 100);
    expect(events.find((e) => e.type === 'user.deleted' && e.userId === leaving)).toMatchObject({
      actor: { kind: 'client', id: bank.id },
      requestId: deleted.body.meta.requestId,
    });
    expect(events.find((e) => e.type === 'user.purged' && e.userId === leaving)).toMatchObject({
      actor: { kind: 'job', id: 'purge' },
      requestId: null,
    });
    expect(events.find((e) => e.type === 'webhook.secret_rotated')).toMatchObject({
      actor: { kind: 'client', id: bank.id },
      requestId: rotated.body.meta.requestId,
      subject: { webhookId },
    });
    expect(JSON.stringify(events)).not.toContain('whsec_');
  });

  it('records a pull of the monitoring job as the job’s, with its period key and no request', async () => {
    app.clock.advance(31 * 86_400_000);
    await runMonitoringUntilIdle(app.ctx);
    const events = await allEvents(await app.currentToken(bank), `&type=bureau.pull&userId=${userId}`, 100);
    expect(events.find((e) => e.actor.kind === 'job')).toMatchObject({
      actor: { kind: 'job', id: 'monitoring' },
      requestId: null,
      subject: { file: 'credit', outcome: 'ok', pullId: expect.stringContaining(`${userId}:period:`) },
    });
  });

  it('records the pulls a request buys, and the files it records, with that request’s id and its caller', async () => {
    const current = await app.currentToken(bank);
    const pulledId = await enrolUser(app, current, { externalUserId: 'cust-pulled' });
    const questions = await app.request('GET', `/v1/users/${pulledId}/verification/questions`, { token: current });
    expect(questions.status).toBe(200);
    const sessionId = questions.body.data.sessionId as string;
    const key = await app.request('GET', `/v1/sandbox/users/${pulledId}/verification/answers?sessionId=${sessionId}`, {
      token: current,
    });
    const answers = await app.request('POST', `/v1/users/${pulledId}/verification/answers`, {
      token: current,
      body: { sessionId, answers: key.body.data.answers },
    });
    expect(answers.body.data?.verified).toBe(true);
    // Refresh now with the user's own token and an idempotency key: its caller is the token, not the bank.
    const userToken = await app.userToken(current, 'cust-pulled');
    const refreshed = await app.request('POST', `/v1/users/${pulledId}/credit-score/refresh`, {
      token: userToken,
      headers: { 'Idempotency-Key': 'refresh-pulled-1' },
    });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const events = await allEvents(current, `&userId=${pulledId}`, 100);
    const pulls = events.filter((e) => e.type === 'bureau.pull');
    const asBank = { kind: 'client', id: bank.id };
    expect(pulls.find((p) => p.subject.file === 'identity')).toMatchObject({
      actor: asBank,
      requestId: questions.body.meta.requestId,
    });
    const refreshActor = { kind: 'user_token', id: expect.stringMatching(/^utk_/) };
    expect(pulls.filter((p) => p.subject.file === 'credit').map(({ actor, requestId }) => ({ actor, requestId }))).toEqual([
      { actor: asBank, requestId: answers.body.meta.requestId },
      { actor: refreshActor, requestId: refreshed.body.meta.requestId },
    ]);
    const recorded = events.filter((e) => e.type === 'credit_file.recorded');
    expect(recorded.map(({ actor, requestId, subject }) => ({ actor, requestId, source: subject.source }))).toEqual([
      { actor: asBank, requestId: answers.body.meta.requestId, source: 'verification' },
      { actor: refreshActor, requestId: refreshed.body.meta.requestId, source: 'refresh' },
    ]);
    // Who called the platform is the trail's to know, not the bureau's: the provider is asked without it.
    expect(optionsAtTheBureau).toContainEqual(
      expect.objectContaining({ pullId: expect.stringContaining(`${pulledId}:refresh:`) }),
    );
    expect(optionsAtTheBureau.filter((options) => 'onBehalfOf' in Object(options))).toEqual([]);
  });

  it('leaves a chain that verifies', async () => {
    expect(await verifyChain(app.db, app.ctx.tokens, bank.id)).toMatchObject({ ok: true });
    expect(await verifyChain(app.db, app.ctx.tokens, rival.id)).toMatchObject({ ok: true });
  });
});
