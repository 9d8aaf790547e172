import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpBureau } from '../src/bureau/http/adapter.ts';
import { startBureauServer } from '../src/bureau/http/server.ts';
import { generateCreditFile } from '../src/bureau/sandbox/generate-file.ts';
import { SandboxBureau } from '../src/bureau/sandbox/sandbox-bureau.ts';
import { enrolUser } from './helpers/credit-users.ts';
import { enrollment, productionEnv, startTestApp, type TestApp } from './helpers/harness.ts';
import { productionWithBureau, startTestBureau, type TestBureau, verifyInProduction } from './helpers/test-bureau.ts';

// Identity values unlikely to appear in a log line by chance, so their absence means something.
const person = {
  firstName: 'Zephyrine',
  lastName: 'Quillfeather',
  ssn: '4821',
  dateOfBirth: '1979-11-23',
  address: { street: '77 Juniperhollow Ln', city: 'Madison', state: 'WI', zipCode: '53703' },
};

let bureau: TestBureau;
let app: TestApp;
let token: string;
beforeAll(async () => {
  bureau = await startTestBureau();
  app = await startTestApp({ config: productionWithBureau(bureau) });
  token = await app.token(await app.createClient());
});
afterAll(async () => {
  await app.close();
  await bureau.close();
});

describe('a production instance with BUREAU_URL pointing at the sandbox bureau over HTTP', () => {
  it('enrols, verifies and reads score, history and offers from the bureau’s files', async () => {
    expect(app.ctx.bureau).toBeInstanceOf(HttpBureau);
    const userId = await enrolUser(app, token, enrollment(person));
    const { questions, result } = await verifyInProduction(app, token, userId);
    expect(questions.status, JSON.stringify(questions.body)).toBe(200);
    expect(questions.body.data.questions).toHaveLength(3);
    expect(result?.status).toBe(200);
    expect(result?.body.data.verified).toBe(true);

    const score = await app.request('GET', `/v1/users/${userId}/credit-score`, { token });
    expect(score.status, JSON.stringify(score.body)).toBe(200);
    // The file crossed the wire intact: the score is the one the sandbox generator gives this identity today.
    const expected = generateCreditFile(
      {
        userId,
        firstName: person.firstName,
        lastName: person.lastName,
        ssnLast4: person.ssn,
        dateOfBirth: person.dateOfBirth,
        address: person.address,
      },
      app.clock.now(),
    );
    expect(score.body.data.score).toBe(expected.monthlyScores.at(-1)?.score);
    expect(score.body.data.bureau).toBe(expected.bureau);

    const history = await app.request('GET', `/v1/users/${userId}/credit-score/history`, { token });
    expect(history.status).toBe(200);
    expect(history.body.data.length).toBeGreaterThan(1);
    const offers = await app.request('GET', `/v1/users/${userId}/offers`, { token });
    expect(offers.status).toBe(200);

    const paths = new Set(bureau.calls.map((call) => call.path));
    expect(paths).toEqual(new Set(['/v1/identity-file', '/v1/credit-file']));
    const logs = app.logs.join('');
    for (const value of [person.firstName, person.lastName, person.dateOfBirth, person.address.street]) {
      expect(logs).not.toContain(value);
    }
  });

  it('passes a freeze through: verification works, credit reads answer 403 CREDIT_FROZEN', async () => {
    const userId = await enrolUser(app, token, enrollment({ ssn: '0000' }));
    const { result } = await verifyInProduction(app, token, userId);
    expect(result?.body.data.verified).toBe(true);
    const score = await app.request('GET', `/v1/users/${userId}/credit-score`, { token });
    expect(score.status).toBe(403);
    expect(score.body.error.code).toBe('CREDIT_FROZEN');
  });

  it('production without BUREAU_URL keeps answering 503', async () => {
    const bare = await startTestApp({ config: productionEnv() });
    try {
      expect(bare.ctx.bureau).toBeUndefined();
      const bareToken = await bare.token(await bare.createClient());
      const userId = await enrolUser(bare, bareToken);
      const questions = await bare.request('GET', `/v1/users/${userId}/verification/questions`, { token: bareToken });
      expect(questions.status).toBe(503);
    } finally {
      await bare.close();
    }
  });
});

describe('a bureau that authenticates by client certificate', () => {
  it('is reached with BUREAU_CLIENT_CERT/BUREAU_CLIENT_KEY, and refused without them', async () => {
    const ca = await selfsigned.generate([{ name: 'commonName', value: 'Test Bureau CA' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      ],
    });
    const signedBy = { key: ca.private, cert: ca.cert };
    const serverPems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      ca: signedBy,
      extensions: [
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
      ],
    });
    const clientPems = await selfsigned.generate([{ name: 'commonName', value: 'credit-platform' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      ca: signedBy,
      extensions: [{ name: 'extKeyUsage', clientAuth: true }],
    });
    const file = (name: string, content: string) => {
      const at = path.join(tmpdir(), `bureau-${process.pid}-${name}.pem`);
      writeFileSync(at, content);
      return at;
    };
    const server = await startBureauServer({
      provider: new SandboxBureau(),
      tls: { cert: serverPems.cert, key: serverPems.private, ca: ca.cert },
    });
    const tlsApp = await startTestApp({
      config: {
        ...productionEnv(),
        BUREAU_URL: server.url,
        BUREAU_CLIENT_CERT: file('client-cert', clientPems.cert),
        BUREAU_CLIENT_KEY: file('client-key', clientPems.private),
        BUREAU_CA_FILE: file('ca', ca.cert),
      },
    });
    const withoutCert = new HttpBureau({
      url: server.url,
      apiKey: 'not-enough',
      ca: ca.cert,
      timeoutMs: 2000,
      retries: 0,
      retryBaseMs: 10,
      breakerThreshold: 5,
      breakerHalfOpenMs: 1000,
      maxPerSecond: 50,
      logger: tlsApp.ctx.logger,
      clock: tlsApp.clock,
    });
    try {
      const tlsToken = await tlsApp.token(await tlsApp.createClient());
      const userId = await enrolUser(tlsApp, tlsToken);
      const { questions, result } = await verifyInProduction(tlsApp, tlsToken, userId);
      expect(questions.status, JSON.stringify(questions.body)).toBe(200);
      expect(result?.body.data.verified).toBe(true);
      expect((await tlsApp.request('GET', `/v1/users/${userId}/credit-score`, { token: tlsToken })).status).toBe(200);

      const subject = {
        userId: 'usr_x',
        firstName: 'Ana',
        lastName: 'Ruiz',
        ssnLast4: '1234',
        dateOfBirth: '1990-01-01',
        address: person.address,
      };
      await expect(withoutCert.pullCreditFile(subject, new Date())).rejects.toMatchObject({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
      });
    } finally {
      await withoutCert.close();
      await tlsApp.close();
      await server.close();
    }
  });
});
