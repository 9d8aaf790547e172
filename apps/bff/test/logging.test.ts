import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollment, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;

beforeAll(async () => {
  app = await startTestApp({ config: { LOG_LEVEL: 'debug' } });
  client = await app.createClient();
});
afterAll(() => app.close());

describe('logs', () => {
  it('carry request ids but never secrets, tokens, Authorization or personal data', async () => {
    const token = await app.token(client);
    const input = enrollment({
      ssn: '7391',
      dateOfBirth: '1966-03-21',
      email: 'private.person@example.test',
      lastName: 'Zyxwvut',
    });
    await app.request('POST', '/v1/users/enroll', { token, body: input, headers: { 'x-request-id': 'trace-logging-1' } });
    await app.request('GET', `/v1/users?externalUserId=${input.externalUserId}&createdAfter=2020-01-01T00:00:00Z`, { token });
    const userToken = await app.userToken(token, 'log-user', { email: 'ut.person@example.test' });
    await app.request('GET', '/v1/me', { token: userToken });
    await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: client.id, client_secret: 'wrong-secret-value' },
    });

    // Timings are numbers that could contain the 4 ssn digits by chance; everything else is checked.
    const logs = app.logs
      .map((line) => {
        const { time: _time, responseTime: _responseTime, ...rest } = JSON.parse(line);
        return JSON.stringify(rest);
      })
      .join('\n');
    expect(logs).toContain('trace-logging-1');
    for (const forbidden of [
      client.secret,
      'wrong-secret-value',
      token,
      userToken,
      '7391',
      '1966-03-21',
      'private.person@example.test',
      'ut.person@example.test',
      'Zyxwvut',
      input.externalUserId,
      'Bearer',
    ]) {
      expect(logs, `log must not contain ${forbidden}`).not.toContain(forbidden);
    }
  });

  it('log client errors as warnings and server errors as errors', async () => {
    const before = app.logs.length;
    await app.request('GET', '/v1/users');
    const line = app.logs
      .slice(before)
      .map((l) => JSON.parse(l))
      .find((l) => l.res?.statusCode === 401);
    expect(line?.level).toBe(40);
  });
});
