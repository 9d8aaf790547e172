import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ZSelfEnrollmentInput } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClockAdvances } from '../../bff/src/modules/clocks/service.ts';
import { startMonitoring } from '../../bff/src/modules/monitoring/scheduler.ts';
import { startTestApp, type TestApp, type TestClient } from '../../bff/test/helpers/harness.ts';
import { customerClockName, MONTH_MS } from '../src/customer-clock.ts';
import { type DemoServer, demoUser, startDemoServer } from '../src/demo-server.ts';
import { type DemoPersona, demoPersona } from '../src/personas.ts';

let app: TestApp;
let client: TestClient;
let demo: DemoServer;

beforeAll(async () => {
  // The product's calendar months (no fixed interval): the demo's advances move in them.
  app = await startTestApp({ config: { MONITORING_INTERVAL: '' } });
  client = await app.createClient();
  demo = await startDemoServer({ host: '127.0.0.1', port: 0, apiUrl: app.url, clientId: client.id, clientSecret: client.secret });
});
afterAll(async () => {
  await demo?.close();
  await app?.close();
});

const get = (path: string) => fetch(`${demo.url}${path}`, { redirect: 'manual' });
/** The page's session cookie for the customer `path` names, as a browser holds it after opening that page. */
const sessionOf = async (base: string, path: string): Promise<string> => {
  const user = new URL(path, base).searchParams.get('user') ?? '';
  const page = await fetch(`${base}/?user=${encodeURIComponent(user)}`, { redirect: 'manual' });
  await page.arrayBuffer();
  return (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
};
/** A POST from the customer's own page: it carries the page's session. */
const post = async (path: string, base = demo.url) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { cookie: await sessionOf(base, path) } });
const bare = (path: string, headers: Record<string, string> = {}) => fetch(`${demo.url}${path}`, { method: 'POST', headers });

/** The identity the page tells this customer to enrol with, read from its table as a person would. */
const identityInPage = (html: string) => {
  const table = /<table id="customer-identity">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  const field = (name: string) => new RegExp(`<th scope="row">${name}</th><td><code>([^<]*)</code>`).exec(table)?.[1] ?? '';
  return {
    ssn: field('SSN \\(last 4\\)'),
    dateOfBirth: field('Date of birth'),
    address: { street: field('Street'), city: field('City'), state: field('State'), zipCode: field('ZIP') },
  };
};

const tokenInPage = (html: string): string => {
  const json = /<script type="application\/json" id="demo-config">(.*?)<\/script>/s.exec(html)?.[1];
  return JSON.parse(json ?? 'null').userToken;
};

/** What the widget does with a user token. */
const asUser = (userToken: string, method: string, path: string, body?: unknown) =>
  fetch(`${app.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${userToken}`,
      ...(body ? { 'content-type': 'application/json', 'idempotency-key': randomUUID() } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

describe('the Maple Bank demo', () => {
  it('sends a visitor without a customer id to a fresh demo customer', async () => {
    const res = await get('/');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/\?user=demo-[0-9a-f]{10}$/);
  });

  it('embeds the widget with the script tag and a user token minted server-side, under a strict CSP', async () => {
    const res = await get('/?user=alice_01');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<script src="${app.url}/embed.js"></script>`);
    expect(html).toContain('<script src="/demo.js"></script>');
    expect(html).toContain('<ol id="event-log" aria-live="polite"');
    expect(html).not.toContain(client.secret);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`script-src 'self' ${app.url}`);
    expect(csp).toContain(`frame-src ${app.url}`);
    expect(csp).not.toContain('unsafe-inline');

    const token = tokenInPage(html);
    expect(token).toMatch(/^ut_/);
    const me = await asUser(token, 'GET', '/v1/me');
    expect(me.body.error.code).toBe('USER_NOT_ENROLLED');
  });

  it('serves its page script and styles', async () => {
    const js = await get('/demo.js');
    expect(js.headers.get('content-type')).toContain('javascript');
    expect(await js.text()).toContain('CreditWidget.create');
    expect((await get('/demo.css')).status).toBe(200);
  });

  it('mints a fresh working token at POST /token', async () => {
    const res = await post('/token?user=alice_01');
    expect(res.status).toBe(200);
    const { userToken } = (await res.json()) as { userToken: string };
    expect(userToken).toMatch(/^ut_/);
    expect((await asUser(userToken, 'GET', '/v1/me')).body.error.code).toBe('USER_NOT_ENROLLED');
    expect((await get('/token?user=alice_01')).status).toBe(405);
  });

  it('refuses every action to a bare request, or one holding another customer’s session', async () => {
    const someoneElses = await sessionOf(demo.url, '/?user=bob_02');
    for (const path of ['/token', '/sandbox/answers', '/sandbox/score-refresh', '/sandbox/alert', '/sandbox/advance-year']) {
      // A webhook delivery pointed at the demo is such a request: JSON, no cookie.
      for (const headers of [{ 'content-type': 'application/json' }, { cookie: someoneElses }]) {
        const res = await bare(`${path}?user=alice_01`, headers);
        expect(res.status, path).toBe(403);
        expect(((await res.json()) as { error: string }).error).toMatch(/page first/);
      }
    }
    expect(someoneElses).toMatch(/^maple_bob_02=/);
  });

  it('refuses customer ids that are empty, too long or have other characters', async () => {
    for (const user of ['', 'a'.repeat(65), 'bad%20id', '%3Cscript%3E', '..%2Fx']) {
      const page = await get(`/?user=${user}`);
      expect(page.status).toBe(400);
      const html = await page.text();
      expect(html).toContain('1–64 letters');
      expect(html).not.toContain('<script>');
      expect((await post(`/token?user=${user}`)).status).toBe(400);
    }
    expect((await get(`/?user=${'a'.repeat(64)}`)).status).toBe(200);
  });

  it('gives the sandbox answers in words, which verify the customer in the widget, then drives the helpers', async () => {
    const user = `kba-${Date.now()}`;
    const page = await (await get(`/?user=${user}`)).text();
    const token = tokenInPage(page);

    const early = await post(`/sandbox/answers?user=${user}`);
    expect(early.status).toBe(409);
    expect(((await early.json()) as any).error).toContain('Enrol in the widget first');

    const enrolled = await asUser(token, 'POST', '/v1/users/enroll', identityInPage(page));
    expect(enrolled.status).toBe(201);
    const userId = enrolled.body.data.userId as string;

    const answersRes = await post(`/sandbox/answers?user=${user}`);
    expect(answersRes.status, await answersRes.clone().text()).toBe(200);
    const { answers } = (await answersRes.json()) as { answers: { question: string; answer: string }[] };
    expect(answers).toHaveLength(3);

    // The widget's own request answers the open session the demo's "Show answers" read; answers are matched by text.
    const session = (await asUser(token, 'GET', `/v1/users/${userId}/verification/questions`)).body.data;
    const picked = session.questions.map((q: any) => {
      const text = answers.find((a) => a.question === q.text)?.answer;
      return { questionId: q.questionId, answerId: q.options.find((o: any) => o.text === text)?.id };
    });
    const result = await asUser(token, 'POST', `/v1/users/${userId}/verification/answers`, {
      sessionId: session.sessionId,
      answers: picked,
    });
    expect(result.body.data.verified).toBe(true);

    const refreshed = await post(`/sandbox/score-refresh?user=${user}`);
    expect(refreshed.status).toBe(200);
    expect(((await refreshed.json()) as any).message).toMatch(/^Score refreshed: \d+ → \d+\.$/);
    const alert = await post(`/sandbox/alert?user=${user}`);
    expect(alert.status).toBe(200);
    const alerts = await asUser(token, 'GET', `/v1/users/${userId}/alerts`);
    expect(alerts.body.data.some((a: any) => a.type === 'new_inquiry')).toBe(true);
  });

  it('moves a verified customer a month, then a year, on a test clock of their own, answering once it is ready', {
    timeout: 60_000,
  }, async () => {
    // The API's start command runs the worker in the same process as the demo; the harness does not, so this test does.
    const workers = [startMonitoring(app.ctx), startClockAdvances(app.ctx)];
    try {
      const user = `clock-${Date.now()}`;
      const page = await (await get(`/?user=${user}`)).text();
      expect(page).toContain('<button type="button" id="sandbox-advance-year">Advance one year</button>');
      const token = tokenInPage(page);
      const early = await post(`/sandbox/advance-month?user=${user}`);
      expect(early.status).toBe(409);
      expect(((await early.json()) as any).error).toContain('Enrol in the widget first');

      const enrolled = await asUser(token, 'POST', '/v1/users/enroll', identityInPage(page));
      const userId = enrolled.body.data.userId as string;
      const unverified = await post(`/sandbox/advance-year?user=${user}`);
      expect(unverified.status).toBe(409);
      expect(((await unverified.json()) as any).error).toContain('Verify your identity in the widget first');

      const answers = ((await (await post(`/sandbox/answers?user=${user}`)).json()) as any).answers as any[];
      const session = (await asUser(token, 'GET', `/v1/users/${userId}/verification/questions`)).body.data;
      const picked = session.questions.map((q: any) => ({
        questionId: q.questionId,
        answerId: q.options.find((o: any) => o.text === answers.find((a) => a.question === q.text)?.answer)?.id,
      }));
      await asUser(token, 'POST', `/v1/users/${userId}/verification/answers`, { sessionId: session.sessionId, answers: picked });
      const history = async () =>
        (await asUser(token, 'GET', `/v1/users/${userId}/credit-score/history?months=84&limit=100`)).body.data;
      const firstPull = async () => (await asUser(token, 'GET', '/v1/me')).body.data.monitoring.lastRefreshedAt;
      await expect.poll(firstPull, { message: 'the first pull, right after verification', timeout: 15_000 }).not.toBeNull();
      const start = await history();

      const month = await post(`/sandbox/advance-month?user=${user}`);
      expect(month.status, await month.clone().text()).toBe(200);
      const first = (await month.json()) as any;
      expect(first.message).toMatch(
        /^One month later \(the customer's test clock now reads \d{4}-\d{2}-\d{2}\): score \d+ → \d+, \d+ new alerts?\.$/,
      );
      expect(first.clock).toMatchObject({ status: 'ready', userCount: 1, name: customerClockName(user) });
      expect(await history()).toHaveLength(start.length + 1);

      const year = await post(`/sandbox/advance-year?user=${user}`);
      expect(year.status, await year.clone().text()).toBe(200);
      const second = (await year.json()) as any;
      expect(second.message).toMatch(/^One year later/);
      // The same clock, found again, twelve calendar months on, at a month's last moment (this customer's sandbox
      // consent has no end; e2e/test/clock-advance.test.ts covers a one-year consent, where the year stops before it).
      expect(second.clock.clockId).toBe(first.clock.clockId);
      const [firstAt, secondAt] = [new Date(first.clock.frozenTime), new Date(second.clock.frozenTime)];
      const monthsApart =
        (secondAt.getUTCFullYear() - firstAt.getUTCFullYear()) * 12 + secondAt.getUTCMonth() - firstAt.getUTCMonth();
      expect(monthsApart).toBe(12);
      expect(new Date(secondAt.getTime() + 1).getUTCDate()).toBe(1);
      const end = await history();
      expect(end).toHaveLength(start.length + 13);
      expect(new Set(end.map((point: { date: string }) => point.date.slice(0, 7))).size).toBe(end.length);
      // Dated in clock time: the newest point is the last period run, a year and a month after verification.
      expect(Date.parse(end[0].date)).toBeGreaterThan(Date.now() + 12 * MONTH_MS);
      const me = (await asUser(token, 'GET', '/v1/me')).body.data;
      expect(Date.parse(me.monitoring.lastRefreshedAt)).toBeGreaterThan(Date.now() + 12 * MONTH_MS);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
  });

  it('answers unknown paths with a 404 page', async () => {
    expect((await get('/nope')).status).toBe(404);
  });
});

/** What the sandbox matches a person by (and counts verification failures under). */
const fingerprint = (p: DemoPersona) => [p.firstName, p.lastName, p.dateOfBirth, p.ssnLast4, p.address.zipCode].join('|');
const randomId = () => `demo-${randomUUID().slice(0, 10)}`;

describe('each demo customer is a person of their own', () => {
  it('derives from a random id an identity no other customer has, valid, adult and never a magic test value', () => {
    const seen = new Map<string, string>();
    for (let i = 0; i < 5_000; i++) {
      const id = randomId();
      const persona = demoPersona(id);
      const key = fingerprint(persona);
      expect(seen.get(key), `${id} and ${seen.get(key)} share ${key}`).toBeUndefined();
      seen.set(key, id);
      expect(['0000', '9999']).not.toContain(persona.ssnLast4);
      const age = (Date.now() - Date.parse(persona.dateOfBirth)) / (365.25 * 86_400_000);
      expect(age).toBeGreaterThan(21);
      expect(age).toBeLessThan(100);
      const { firstName: _f, lastName: _l, ssnLast4: ssn, ...rest } = persona;
      expect(ZSelfEnrollmentInput.safeParse({ ssn, ...rest }).success, JSON.stringify(persona)).toBe(true);
    }
    // Plenty of different names too, not a handful of pairs.
    expect(new Set([...seen.keys()].map((key) => key.split('|').slice(0, 2).join(' '))).size).toBeGreaterThan(900);
  });

  it('is the same person whenever the same customer id comes back, named so in the token and on the page', async () => {
    const id = randomId();
    expect(demoPersona(id)).toEqual(demoPersona(id));
    expect(demoUser(id)).toMatchObject({ firstName: demoPersona(id).firstName, lastName: demoPersona(id).lastName });
    const html = await (await get(`/?user=${id}`)).text();
    const { firstName, lastName, ssnLast4, ...rest } = demoPersona(id);
    expect(identityInPage(html)).toEqual({ ssn: ssnLast4, ...rest });
    expect(html).toContain(`<strong>${firstName} ${lastName}</strong>`);
    expect(html).toContain(`<code>${client.id}</code>`);
    expect(html).toContain(`/v1/users?externalUserId=${id}`);
  });

  it('does not inherit the verification lockout of another customer, even one with the same name', async () => {
    const first = randomId();
    let second = randomId();
    const named = (id: string) => `${demoPersona(id).firstName} ${demoPersona(id).lastName}`;
    while (named(second) !== named(first)) second = randomId();
    const admin = await app.token(client);

    const enrolFromPage = async (id: string) => {
      const html = await (await get(`/?user=${id}`)).text();
      const token = tokenInPage(html);
      const enrolled = await asUser(token, 'POST', '/v1/users/enroll', identityInPage(html));
      expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
      return { token, userId: enrolled.body.data.userId as string };
    };
    const questions = (as: { token: string; userId: string }) =>
      asUser(as.token, 'GET', `/v1/users/${as.userId}/verification/questions`);

    const locked = await enrolFromPage(first);
    for (let attempt = 0; attempt < 3; attempt++) {
      const session = (await questions(locked)).body.data;
      const key = await app.request(
        'GET',
        `/v1/sandbox/users/${locked.userId}/verification/answers?sessionId=${session.sessionId}`,
        { token: admin },
      );
      const wrong = session.questions.map((q: any) => ({
        questionId: q.questionId,
        answerId: q.options.find((o: any) => !key.body.data.answers.some((a: any) => a.answerId === o.id)).id,
      }));
      await asUser(locked.token, 'POST', `/v1/users/${locked.userId}/verification/answers`, {
        sessionId: session.sessionId,
        answers: wrong,
      });
    }
    expect((await questions(locked)).body.error.code).toBe('VERIFICATION_LOCKED');

    const fresh = await enrolFromPage(second);
    const res = await questions(fresh);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.questions).toHaveLength(3);
  });
});

describe('when the API fails', () => {
  it('shows a readable message, never a stack trace', async () => {
    const down = await startDemoServer({
      host: '127.0.0.1',
      port: 0,
      apiUrl: 'http://127.0.0.1:9',
      clientId: 'cli_sbx_x',
      clientSecret: 'sk_x',
    });
    try {
      const page = await fetch(`${down.url}/?user=x`);
      expect(page.status).toBe(502);
      const html = await page.text();
      expect(html).toContain('cannot be reached');
      expect(html).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
      const token = await post('/token?user=x', down.url);
      expect(token.status).toBe(502);
      expect(((await token.json()) as any).error).toContain('cannot be reached');
    } finally {
      await down.close();
    }
  });

  it('shows the API’s own message for wrong credentials', async () => {
    const wrong = await startDemoServer({
      host: '127.0.0.1',
      port: 0,
      apiUrl: app.url,
      clientId: client.id,
      clientSecret: 'sk_wrong',
    });
    try {
      const page = await fetch(`${wrong.url}/?user=x`);
      expect(page.status).toBe(502);
      expect(await page.text()).toContain('The bank could not sign in to the Credit API');
    } finally {
      await wrong.close();
    }
  });

  it('caches the access token and mints a new one after a 401', async () => {
    let mints = 0;
    const fake = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/oauth/token') {
        mints += 1;
        res.end(JSON.stringify({ access_token: `at_${mints}`, token_type: 'Bearer', expires_in: 3600, scope: 'write' }));
      } else if (req.headers.authorization === 'Bearer at_1') {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: { code: 'AUTHENTICATION_ERROR', message: 'revoked' } }));
      } else {
        res.statusCode = 201;
        const meta = { requestId: 'req_fake', timestamp: '2026-01-15T10:00:00.000Z' };
        res.end(
          JSON.stringify({ data: { userToken: 'ut_sbx_fake', expiresIn: 3600, expiresAt: '2026-01-15T11:00:00.000Z' }, meta }),
        );
      }
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const apiUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const partner = await startDemoServer({ host: '127.0.0.1', port: 0, apiUrl, clientId: 'cli_sbx_x', clientSecret: 'sk_x' });
    try {
      // Opening the page mints a token too: its 401 is the one that makes the demo mint a second access token.
      const cookie = await sessionOf(partner.url, '/?user=x');
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${partner.url}/token?user=x`, { method: 'POST', headers: { cookie } });
        expect(await res.json()).toEqual({ userToken: 'ut_sbx_fake' });
      }
      expect(mints).toBe(2);
    } finally {
      await partner.close();
      fake.close();
    }
  });
});
