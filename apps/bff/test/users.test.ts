import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEventsForClient } from '../src/outbox/outbox.ts';
import { runHousekeeping } from '../src/worker.ts';
import { enrollment, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  token = await app.token(client);
});
afterAll(() => app.close());

const enrol = (body: unknown) => app.request('POST', '/v1/users/enroll', { token, body });

describe('POST /v1/users/enroll', () => {
  it('enrols a user as pending_verification and emits user.enrolled', async () => {
    const input = enrollment();
    const res = await enrol(input);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      userId: expect.stringMatching(/^usr_/),
      externalUserId: input.externalUserId,
      status: 'pending_verification',
      createdAt: expect.any(String),
      // A sandbox enrolment without `consent` is recorded as the sandbox default, and the answer says so.
      consent: {
        consentId: expect.stringMatching(/^cns_/),
        method: 'sandbox_default',
        termsVersion: app.ctx.config.CONSENT_TERMS_VERSION,
        expiresAt: expect.any(String),
      },
    });
    const events = await listEventsForClient(app.db, client.id);
    expect(events.at(-1)).toMatchObject({
      type: 'user.enrolled',
      id: expect.stringMatching(/^evt_/),
      data: {
        userId: res.body.data.userId,
        externalUserId: input.externalUserId,
        email: input.email,
        status: 'pending_verification',
      },
    });
  });

  it('answers 409 USER_EXISTS for a live externalUserId, and writes no event for it', async () => {
    const input = enrollment();
    expect((await enrol(input)).status).toBe(201);
    const before = (await listEventsForClient(app.db, client.id)).length;
    const again = await enrol({ ...input, email: 'other@example.test' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('USER_EXISTS');
    expect((await listEventsForClient(app.db, client.id)).length).toBe(before);
  });

  it.each([
    ['ssn with 3 digits', { ssn: '123' }, 'ssn'],
    ['ssn with letters', { ssn: '12a4' }, 'ssn'],
    ['full ssn', { ssn: '123-45-6789' }, 'ssn'],
    ['an impossible date', { dateOfBirth: '1990-02-30' }, 'dateOfBirth'],
    ['a non-date', { dateOfBirth: '12/04/1985' }, 'dateOfBirth'],
    ['a minor', { dateOfBirth: `${new Date().getUTCFullYear() - 17}-01-01` }, 'dateOfBirth'],
    ['someone over 120', { dateOfBirth: '1890-01-01' }, 'dateOfBirth'],
    ['a bad e-mail', { email: 'not-an-email' }, 'email'],
    ['a blank first name', { firstName: '   ' }, 'firstName'],
    ['a non-US state', { address: { street: '1 A St', city: 'X', state: 'ON', zipCode: '62701' } }, 'address.state'],
    ['a short zip', { address: { street: '1 A St', city: 'X', state: 'IL', zipCode: '6270' } }, 'address.zipCode'],
    ['a bad zip+4', { address: { street: '1 A St', city: 'X', state: 'IL', zipCode: '62701-12' } }, 'address.zipCode'],
    ['a bad phone', { phone: 'call me' }, 'phone'],
    ['a number for a string', { externalUserId: 42 }, 'externalUserId'],
  ])('rejects %s with 400 naming the field', async (_name, override, field) => {
    const res = await enrol(enrollment(override));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
  });

  it('accepts zip+4, a phone and a leap-day birth date', async () => {
    const res = await enrol(
      enrollment({
        dateOfBirth: '1984-02-29',
        phone: '+1 (555) 010-0100',
        address: { street: '9 Elm', city: 'Austin', state: 'TX', zipCode: '73301-0001' },
      }),
    );
    expect(res.status).toBe(201);
  });

  it('stores ssn, date of birth, address and phone only encrypted', async () => {
    const input = enrollment({ ssn: '4821', dateOfBirth: '1971-07-09', phone: '+1 555 010 0199' });
    const { body } = await enrol(input);
    const { rows } = await app.db.query<Record<string, string>>(
      'select ssn_enc, date_of_birth_enc, address_enc, phone_enc from users where id = $1',
      [body.data.userId],
    );
    const row = rows[0] as Record<string, string>;
    const stored = JSON.stringify(row);
    expect(stored).not.toContain('4821');
    expect(stored).not.toContain('1971-07-09');
    expect(stored).not.toContain('Springfield');
    expect(app.ctx.cipher.decrypt(row.ssn_enc as string, `users.ssn:${body.data.userId}`)).toBe('4821');
    expect(() => app.ctx.cipher.decrypt(row.ssn_enc as string, 'users.ssn:usr_someoneelse')).toThrow();
  });
});

describe('GET /v1/users/{userId}', () => {
  it('returns the user with enrolledAt and lastScoreDate', async () => {
    const input = enrollment();
    const { body } = await enrol(input);
    const res = await app.request('GET', `/v1/users/${body.data.userId}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      userId: body.data.userId,
      externalUserId: input.externalUserId,
      email: input.email,
      firstName: 'Jane',
      lastName: 'Doe',
      status: 'pending_verification',
      enrolledAt: body.data.createdAt,
      createdAt: body.data.createdAt,
      lastScoreDate: null,
      monitoring: {
        status: 'paused',
        pausedReason: 'not_verified',
        lastRefreshedAt: null,
        nextRefreshAt: null,
        refreshAvailableAt: null,
      },
    });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const missing = await app.request('GET', '/v1/users/usr_doesnotexist0000', { token });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const malformed = await app.request('GET', '/v1/users/42', { token });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details[0].field).toBe('path.userId');
  });
});

describe('DELETE /v1/users/{userId}', () => {
  it('removes the user from every read at once, emits user.deleted, and frees the externalUserId', async () => {
    const input = enrollment();
    const { body } = await enrol(input);
    const userId = body.data.userId;
    const res = await app.request('DELETE', `/v1/users/${userId}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ userId, deletedAt: expect.any(String), message: expect.stringMatching(/30 days/) });
    expect((await app.request('GET', `/v1/users/${userId}`, { token })).status).toBe(404);
    const list = await app.request('GET', `/v1/users?externalUserId=${input.externalUserId}`, { token });
    expect(list.body.data).toEqual([]);
    expect((await app.request('DELETE', `/v1/users/${userId}`, { token })).status).toBe(404);
    const events = await listEventsForClient(app.db, client.id);
    expect(events.at(-1)).toMatchObject({
      type: 'user.deleted',
      data: { userId, externalUserId: input.externalUserId, deletedAt: res.body.data.deletedAt },
    });
    expect((await enrol(input)).status).toBe(201);
  });

  it('purges personal data after USER_PURGE_AFTER_DAYS, including the e-mail in its enrolment event', async () => {
    const input = enrollment();
    const { body } = await enrol(input);
    const userId = body.data.userId;
    await app.request('DELETE', `/v1/users/${userId}`, { token });
    const select = async () =>
      (
        await app.db.query<Record<string, unknown>>('select email, ssn_enc, last_name, purged_at from users where id = $1', [
          userId,
        ])
      ).rows[0];

    app.clock.advance((app.ctx.config.USER_PURGE_AFTER_DAYS - 1) * 86_400_000);
    await runHousekeeping(app.ctx);
    expect((await select())?.email).toBe(input.email);

    app.clock.advance(2 * 86_400_000);
    const { purgedUsers } = await runHousekeeping(app.ctx);
    expect(purgedUsers).toBeGreaterThanOrEqual(1);
    expect(await select()).toMatchObject({ email: null, ssn_enc: null, last_name: null, purged_at: expect.anything() });
    const enrolled = (await listEventsForClient(app.db, client.id)).find(
      (e) => e.type === 'user.enrolled' && e.data.userId === userId,
    );
    expect(enrolled?.data.email).toBeUndefined();
  });
});
