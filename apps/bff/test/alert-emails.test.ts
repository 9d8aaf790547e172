import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EVENT_DATA_SCHEMAS } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContext } from '../src/bootstrap.ts';
import type { AppContext } from '../src/context.ts';
import type { Db } from '../src/db/db.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { createLogger } from '../src/logger.ts';
import { pruneSettledAlertEmails, runAlertEmailsUntilIdle } from '../src/modules/alert-emails/service.ts';
import type { AlertEmailSettings } from '../src/modules/clients/service.ts';
import { changeClient } from '../src/modules/clients/service.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { listEventsForClient } from '../src/outbox/outbox.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient, testConfig } from './helpers/harness.ts';
import { runCli } from './helpers/processes.ts';
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from './helpers/smtp-receiver.ts';
import { usingPostgres } from './helpers/test-db.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const BANK_PAGE = 'https://www.maple-bank.example/credit';
const SETTINGS: Partial<AlertEmailSettings> = {
  enabled: true,
  displayName: 'Maple Bank',
  replyTo: 'help@maple-bank.example',
  linkUrl: BANK_PAGE,
  logoUrl: 'https://www.maple-bank.example/logo.png',
  brandColor: '#0a7d3e',
};

let smtp: SmtpReceiver;
let app: TestApp;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  app = await startTestApp({ config: { SMTP_URL: smtp.url, SMTP_FROM: 'Credit API <alerts@credit.example>' } });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

// ---- Reading the e-mails as a mail client does: headers unfolded and decoded, each part decoded ----

interface ParsedMail {
  headers: Map<string, string>;
  text: string;
  html: string;
}

const decodeWords = (value: string) =>
  value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, encoding: string, text: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replaceAll('_', ' ')),
    );

const decodeQuotedPrintable = (text: string) =>
  Buffer.from(
    text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

const splitHead = (raw: string) => {
  const at = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, at).replace(/\r?\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body: raw.slice(at).replace(/^\r?\n\r?\n/, '') };
};

const decodeBody = (headers: Map<string, string>, body: string) => {
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8');
  return body;
};

const parseMail = (raw: string): ParsedMail => {
  const { headers, body } = splitHead(raw);
  const parsed: ParsedMail = { headers, text: '', html: '' };
  const visit = (partHeaders: Map<string, string>, partBody: string) => {
    const type = partHeaders.get('content-type') ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1];
    if (type.startsWith('multipart/') && boundary) {
      for (const part of partBody.split(`--${boundary}`).slice(1)) {
        if (part.startsWith('--')) break;
        const inner = splitHead(part.replace(/^\r?\n/, ''));
        visit(inner.headers, inner.body);
      }
    } else if (type.startsWith('text/html')) parsed.html = decodeBody(partHeaders, partBody);
    else if (type.startsWith('text/plain')) parsed.text = decodeBody(partHeaders, partBody);
  };
  visit(headers, body);
  return parsed;
};

/** What a reader sees of the HTML part: its text, without tags or attributes. */
const visibleText = (html: string) => html.replace(/<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' ');

// ---- The bank, its customers and their alerts ----

const tok = (client: TestClient) => app.currentToken(client);

const bank = (settings: Partial<AlertEmailSettings> = {}) =>
  app.createClient({ name: 'Maple Bank N.A. (legal name)', alertEmails: { ...SETTINGS, ...settings } });

let customers = 0;
/**
 * An active customer of `client` with an address of their own, so their e-mails can be told apart. Sandbox story 1002
 * raises no alert of its own (not at verification's first pull, nor later), so every e-mail comes from the test.
 */
const customer = async (client: TestClient, overrides: Record<string, unknown> = {}) => {
  customers += 1;
  const email = `customer${customers}.${Math.random().toString(36).slice(2, 8)}@inbox.example`;
  const userId = await enrolActiveUser(app, await tok(client), {
    email,
    ssn: '1002',
    firstName: 'Jane',
    lastName: 'Rosewood',
    ...overrides,
  });
  return { userId, email };
};

const raiseAlert = async (client: TestClient, userId: string, type = 'late_payment') => {
  const res = await app.request('POST', `/v1/sandbox/users/${userId}/alerts`, { token: await tok(client), body: { type } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { alertId: string; title: string; message: string; data: Record<string, unknown> };
};

const mailsTo = (email: string): ReceivedMail[] => smtp.mails.filter((mail) => mail.to.includes(email));

const sendDue = () => runAlertEmailsUntilIdle(app.ctx);

const emailRows = async (userId: string) =>
  (
    await app.db.query<{
      id: string;
      state: string;
      attempts: number;
      last_error: string | null;
      suppressed_reason: string | null;
      sent_at: Date | null;
      next_attempt_at: Date;
      alert_ids: string[];
    }>(
      `select id, state, attempts, last_error, suppressed_reason, sent_at, next_attempt_at, alert_ids from alert_emails
       where user_id = $1 order by created_at, id`,
      [userId],
    )
  ).rows;

const emailEvents = async (clientId: string, userId: string) =>
  (await listEventsForClient(app.db, clientId)).filter((e) => e.type.startsWith('alert.email.') && e.data.userId === userId);

/** The unsubscribe address of an e-mail, from its List-Unsubscribe header. */
const unsubscribeUrlOf = (mail: ParsedMail) => {
  const url = /^<(.+)>$/.exec(mail.headers.get('list-unsubscribe') ?? '')?.[1];
  if (!url) throw new Error('no List-Unsubscribe header');
  return url;
};

/** A browser or a mail client: no credentials of any kind. */
const visit = (url: string, init: RequestInit = {}) => fetch(url, { redirect: 'manual', ...init });
const oneClick = (url: string) =>
  visit(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });

describe('an alert e-mail', () => {
  it('reaches the customer under the bank’s name, says only that there is an alert and where, and is announced', async () => {
    const client = await bank();
    const { userId, email } = await customer(client);
    const alert = await raiseAlert(client, userId);
    expect(alert.data.lender).toEqual(expect.any(String));
    const report = await sendDue();
    expect(report.sent).toBeGreaterThanOrEqual(1);
    const received = mailsTo(email);
    expect(received).toHaveLength(1);
    const mail = parseMail(received[0]?.raw ?? '');

    expect(received[0]?.from).toBe('alerts@credit.example');
    expect(mail.headers.get('from')?.replaceAll('"', '')).toBe('Maple Bank <alerts@credit.example>');
    expect(mail.headers.get('reply-to')).toBe('help@maple-bank.example');
    expect(mail.headers.get('subject')).toBe('You have a new credit alert');
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const unsubscribeUrl = unsubscribeUrlOf(mail);
    expect(unsubscribeUrl).toMatch(new RegExp(`^${app.url}/email/unsubscribe\\?t=[A-Za-z0-9]{32}$`));

    expect(mail.text).toContain('Hi Jane,');
    expect(mail.text).toContain('There is a new alert in your credit monitoring with Maple Bank.');
    expect(mail.text).toContain(BANK_PAGE);
    expect(mail.text).toContain(unsubscribeUrl);
    expect(mail.html).toContain('<img src="https://www.maple-bank.example/logo.png" alt="Maple Bank"');
    expect(mail.html).toContain('border-top:6px solid #0a7d3e');
    expect(mail.html).toContain(`href="${BANK_PAGE}"`);
    expect(mail.html).toContain(`href="${unsubscribeUrl}"`);

    // GLBA: nothing of the alert, the file or the person beyond the first name.
    const score = (await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await tok(client) })).body.data.score;
    for (const shown of [mail.text, visibleText(mail.html), mail.headers.get('subject') ?? '']) {
      const words = shown.replace(/https?:\/\/\S+/g, ' ');
      expect(words).not.toMatch(/\b\d{3}\b/);
      expect(words).not.toContain(String(score));
      for (const secret of [alert.title, alert.message, String(alert.data.lender), String(alert.data.accountType), 'Rosewood']) {
        expect(words).not.toContain(secret);
      }
      expect(words).not.toContain(email);
    }
    expect(received[0]?.raw).not.toContain('Rosewood');
    expect(received[0]?.raw).not.toContain(String(alert.data.lender));

    const [row] = await emailRows(userId);
    expect(row).toMatchObject({ state: 'sent', attempts: 1, last_error: null, alert_ids: [alert.alertId] });
    expect(row?.sent_at).not.toBeNull();
    const events = await emailEvents(client.id, userId);
    expect(events.map((e) => e.type)).toEqual(['alert.email.sent']);
    const data = events[0]?.data;
    expect(data).toEqual({
      userId,
      externalUserId: expect.any(String),
      emailId: row?.id,
      mode: 'each',
      alertIds: [alert.alertId],
      alertCount: 1,
      attempts: 1,
      sentAt: new Date(row?.sent_at as Date).toISOString(),
    });
    expect(EVENT_DATA_SCHEMAS['alert.email.sent'].safeParse(data).success).toBe(true);
    expect(JSON.stringify(data)).not.toContain('@');

    // Sent once: another pass finds nothing due.
    expect((await sendDue()).claimed).toBe(0);
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('is in Spanish for a customer who enrolled in Spanish, or whose widget shows Spanish', async () => {
    const client = await bank({ displayName: 'Banco Arce' });
    const spanish = await customer(client, { locale: 'es' });
    await raiseAlert(client, spanish.userId);
    await sendDue();
    const mail = parseMail(mailsTo(spanish.email)[0]?.raw ?? '');
    expect(mail.headers.get('subject')).toBe('Tiene una nueva alerta de crédito');
    expect(mail.headers.get('from')?.replaceAll('"', '')).toBe('Banco Arce <alerts@credit.example>');
    expect(mail.text).toContain('Hola, Jane:');
    expect(mail.text).toContain('Hay una nueva alerta en su monitoreo de crédito con Banco Arce.');
    expect(mail.text).toContain('Por su seguridad, este correo no dice qué cambió.');
    expect(mail.html).toContain('<html lang="es">');
    expect(mail.html).toContain('Ver sus alertas en Banco Arce');

    // Enrolled in English; the widget then opens in Spanish and says so when its session starts.
    const externalUserId = `widget-reader-${customers}`;
    const switched = await customer(client, { externalUserId });
    const userToken = await app.userToken(await tok(client), externalUserId);
    const session = await app.request('POST', '/widget/session', {
      token: userToken,
      body: { parentOrigin: null, locale: 'es' },
    });
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    await raiseAlert(client, switched.userId);
    await sendDue();
    expect(parseMail(mailsTo(switched.email)[0]?.raw ?? '').headers.get('subject')).toBe('Tiene una nueva alerta de crédito');
  });

  it('is not sent when the bank has alert e-mails off (the default)', async () => {
    const client = await app.createClient();
    const { userId, email } = await customer(client);
    await raiseAlert(client, userId);
    await sendDue();
    expect(await emailRows(userId)).toEqual([]);
    expect(mailsTo(email)).toEqual([]);
  });
});

describe('one-click unsubscribe', () => {
  it('asks on GET, unsubscribes on the one-click POST without signing in, and the next alert sends nothing', async () => {
    const client = await bank();
    const { userId, email } = await customer(client, { locale: 'es' });
    await raiseAlert(client, userId);
    await sendDue();
    const url = unsubscribeUrlOf(parseMail(mailsTo(email)[0]?.raw ?? ''));

    // A link scanner's GET changes nothing: the page asks, in the customer's language, with a button that POSTs.
    const asked = await visit(url);
    expect(asked.status).toBe(200);
    expect(asked.headers.get('content-type')).toMatch(/^text\/html/);
    expect(asked.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(asked.headers.get('content-security-policy')).toContain("form-action 'self'");
    const question = await asked.text();
    expect(question).toContain('<html lang="es">');
    expect(question).toContain('¿Dejar de recibir correos de alertas de Maple Bank?');
    expect(question).toMatch(/<form method="post">\s*<input type="hidden" name="List-Unsubscribe" value="One-Click">/);
    expect(question).not.toContain(email);
    const english = await visit(`${url}&lang=en`);
    expect(await english.text()).toContain('Stop alert e-mails from Maple Bank?');
    await raiseAlert(client, userId);
    await sendDue();
    expect(mailsTo(email)).toHaveLength(2);

    const done = await oneClick(url);
    expect(done.status).toBe(200);
    const confirmation = await done.text();
    expect(confirmation).toContain('Ya no recibirá correos de alertas de Maple Bank.');
    expect(confirmation).toContain(`href="${BANK_PAGE}"`);
    // Once more (a mail client retrying): the same answer.
    expect((await oneClick(url)).status).toBe(200);
    expect((await visit(url)).status).toBe(200);

    await raiseAlert(client, userId);
    await sendDue();
    expect(mailsTo(email)).toHaveLength(2);
    expect((await emailRows(userId)).map((row) => row.state)).toEqual(['sent', 'sent']);
  });

  it('suppresses an e-mail queued before the customer unsubscribed', async () => {
    const client = await bank();
    const { userId, email } = await customer(client);
    await raiseAlert(client, userId);
    await sendDue();
    const url = unsubscribeUrlOf(parseMail(mailsTo(email)[0]?.raw ?? ''));
    await raiseAlert(client, userId);
    expect((await oneClick(url)).status).toBe(200);
    await sendDue();
    expect(mailsTo(email)).toHaveLength(1);
    // Both were queued at the same instant of the test's clock: compared in any order.
    expect((await emailRows(userId)).map((row) => [row.state, row.suppressed_reason]).sort()).toEqual([
      ['sent', null],
      ['suppressed', 'unsubscribed'],
    ]);
    expect((await emailEvents(client.id, userId)).map((e) => [e.type, e.data.reason ?? null]).sort()).toEqual([
      ['alert.email.sent', null],
      ['alert.email.suppressed', 'unsubscribed'],
    ]);
  });

  it('answers a bad token with a 4xx page in both languages, never a 500', async () => {
    const base = `${app.url}/email/unsubscribe`;
    const cases: [string, RequestInit, number][] = [
      [base, {}, 400],
      [`${base}?t=`, {}, 400],
      [`${base}?t=short`, {}, 400],
      [`${base}?t=${'x'.repeat(32)}&t=${'y'.repeat(32)}`, {}, 400],
      [`${base}?t=${'%00'.repeat(32)}`, {}, 400],
      [`${base}?t=${'A'.repeat(32)}`, {}, 404],
      [`${base}?t=${'A'.repeat(32)}`, { method: 'POST', body: 'List-Unsubscribe=One-Click' }, 404],
      [`${base}?t=${'B'.repeat(31)}!`, { method: 'POST', body: 'List-Unsubscribe=One-Click' }, 400],
    ];
    for (const [url, init, status] of cases) {
      const res = await visit(url, {
        ...init,
        headers: init.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      });
      expect(res.status, url).toBe(status);
      expect(res.headers.get('content-type'), url).toMatch(/^text\/html/);
      const page = await res.text();
      expect(page).toMatch(/This link (is incomplete|does not work)/);
      expect(page).toMatch(/Este enlace (está incompleto|no funciona)/);
    }

    // A valid token POSTed without the one-click form is refused, and unsubscribes no one.
    const client = await bank();
    const { userId, email } = await customer(client);
    await raiseAlert(client, userId);
    await sendDue();
    const url = unsubscribeUrlOf(parseMail(mailsTo(email)[0]?.raw ?? ''));
    const json = await visit(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(400);
    expect(await json.text()).toContain('Use the button to unsubscribe');
    await raiseAlert(client, userId);
    await sendDue();
    expect(mailsTo(email)).toHaveLength(2);
  });
});

describe('nothing is sent once the customer may not be written to', () => {
  it('after consent is withdrawn: the e-mail ends suppressed, with its event', async () => {
    const client = await bank();
    const { userId, email } = await customer(client);
    const alert = await raiseAlert(client, userId);
    const withdrawn = await app.request('POST', `/v1/users/${userId}/consent/withdraw`, { token: await tok(client) });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    await sendDue();
    expect(mailsTo(email)).toEqual([]);
    const [row] = await emailRows(userId);
    expect(row).toMatchObject({ state: 'suppressed', suppressed_reason: 'consent_withdrawn', attempts: 0 });
    const events = await emailEvents(client.id, userId);
    expect(events.map((e) => e.type)).toEqual(['alert.email.suppressed']);
    expect(events[0]?.data).toMatchObject({ userId, alertIds: [alert.alertId], alertCount: 1, reason: 'consent_withdrawn' });
    expect(EVENT_DATA_SCHEMAS['alert.email.suppressed'].safeParse(events[0]?.data).success).toBe(true);
  });

  it('after the customer is deleted', async () => {
    const client = await bank();
    const { userId, email } = await customer(client);
    await raiseAlert(client, userId);
    expect((await app.request('DELETE', `/v1/users/${userId}`, { token: await tok(client) })).status).toBe(200);
    await sendDue();
    expect(mailsTo(email)).toEqual([]);
    expect((await emailRows(userId)).map((row) => [row.state, row.suppressed_reason])).toEqual([['suppressed', 'user_deleted']]);
    const events = await emailEvents(client.id, userId);
    expect(events.map((e) => [e.type, e.data.reason])).toEqual([['alert.email.suppressed', 'user_deleted']]);
  });

  it('after the bank turns alert e-mails off', async () => {
    const client = await bank();
    const { userId, email } = await customer(client);
    await raiseAlert(client, userId);
    await changeClient(app.db, client.id, { alertEmails: { enabled: false } });
    await sendDue();
    expect(mailsTo(email)).toEqual([]);
    expect((await emailRows(userId)).map((row) => row.suppressed_reason)).toEqual(['alert_emails_off']);
  });
});

describe('a mail server that fails', () => {
  it('is retried with backoff; once it recovers the customer gets one e-mail, with every attempt counted', async () => {
    const client = await bank();
    const { userId, email } = await customer(client);
    await raiseAlert(client, userId);
    smtp.refuseNext(2);
    const firstTry = app.clock.now().getTime();
    expect((await sendDue()).retried).toBe(1);
    let [row] = await emailRows(userId);
    expect(row).toMatchObject({ state: 'pending', attempts: 1, last_error: 'EENVELOPE 451' });
    expect(new Date(row?.next_attempt_at as Date).getTime()).toBe(firstTry + MINUTE);
    // Not before its time.
    expect((await sendDue()).claimed).toBe(0);

    app.clock.advance(MINUTE);
    expect((await sendDue()).retried).toBe(1);
    [row] = await emailRows(userId);
    expect(row).toMatchObject({ state: 'pending', attempts: 2, last_error: 'EENVELOPE 451' });
    expect(new Date(row?.next_attempt_at as Date).getTime()).toBe(firstTry + MINUTE + 5 * MINUTE);

    app.clock.advance(5 * MINUTE);
    expect((await sendDue()).sent).toBe(1);
    expect(mailsTo(email)).toHaveLength(1);
    [row] = await emailRows(userId);
    expect(row).toMatchObject({ state: 'sent', attempts: 3, last_error: null });
    const events = await emailEvents(client.id, userId);
    expect(events.map((e) => [e.type, e.data.attempts])).toEqual([['alert.email.sent', 3]]);
  });

  it('gives up after the last retry: failed, with alert.email.failed and the error class only', async () => {
    const client = await bank();
    const { userId, email } = await customer(client);
    await raiseAlert(client, userId);
    smtp.refuseNext(100);
    try {
      await sendDue();
      for (const wait of app.ctx.config.ALERT_EMAIL_RETRY_SCHEDULE) {
        app.clock.advance(wait);
        await sendDue();
      }
    } finally {
      smtp.refuseNext(0);
    }
    expect(mailsTo(email)).toEqual([]);
    const [row] = await emailRows(userId);
    expect(row).toMatchObject({ state: 'failed', attempts: 6, last_error: 'EENVELOPE 451' });
    const events = await emailEvents(client.id, userId);
    expect(events.map((e) => e.type)).toEqual(['alert.email.failed']);
    expect(events[0]?.data).toMatchObject({ attempts: 6, lastError: 'EENVELOPE 451', alertCount: 1 });
    expect(EVENT_DATA_SCHEMAS['alert.email.failed'].safeParse(events[0]?.data).success).toBe(true);
    app.clock.advance(24 * 60 * MINUTE);
    expect((await sendDue()).claimed).toBe(0);
  });
});

describe('the daily digest', () => {
  it('sends one e-mail per customer for the alerts of a day, with how many, once the day is over', async () => {
    const client = await bank({ mode: 'daily_digest' });
    const { userId, email } = await customer(client);
    const alerts = [
      await raiseAlert(client, userId, 'new_inquiry'),
      await raiseAlert(client, userId, 'late_payment'),
      await raiseAlert(client, userId, 'fraud_alert'),
    ];
    const day = app.clock.now().toISOString().slice(0, 10);
    await sendDue();
    expect(mailsTo(email)).toEqual([]);

    const nextDay = Date.parse(`${day}T00:00:00.000Z`) + 24 * 60 * MINUTE;
    app.clock.set(new Date(nextDay + MINUTE));
    await sendDue();
    const received = mailsTo(email);
    expect(received).toHaveLength(1);
    const mail = parseMail(received[0]?.raw ?? '');
    expect(mail.headers.get('subject')).toBe('You have 3 new credit alerts');
    const dayName = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T12:00Z`));
    expect(mail.text).toContain(`There were 3 new alerts in your credit monitoring with Maple Bank on ${dayName}.`);
    const events = await emailEvents(client.id, userId);
    expect(events.map((e) => e.type)).toEqual(['alert.email.sent']);
    expect(events[0]?.data).toMatchObject({ mode: 'daily_digest', alertCount: 3 });
    expect([...((events[0]?.data.alertIds ?? []) as string[])].sort()).toEqual(alerts.map((a) => a.alertId).sort());

    // The next day's alert goes in the next day's digest.
    await raiseAlert(client, userId, 'new_account');
    await sendDue();
    expect(mailsTo(email)).toHaveLength(1);
    app.clock.advance(24 * 60 * MINUTE);
    await sendDue();
    expect(mailsTo(email)).toHaveLength(2);
    expect(parseMail(mailsTo(email)[1]?.raw ?? '').headers.get('subject')).toBe('You have a new credit alert');
  });
});

describe('two workers', () => {
  let second: { ctx: AppContext; db?: Db } | undefined;
  afterAll(async () => {
    await second?.db?.close();
  });

  /** On PostgreSQL another instance with its own connections; PGlite is one process's database, so the same one. */
  const otherWorker = async (): Promise<AppContext> => {
    if (!usingPostgres) return app.ctx;
    const schema = (app.db as Db & { schema: string }).schema;
    const db = await openPostgres({ connectionString: process.env.DATABASE_URL as string, schema, max: 5 });
    const config = testConfig({ SMTP_URL: smtp.url, SMTP_FROM: 'Credit API <alerts@credit.example>' });
    second = { db, ctx: await buildContext({ config, db, logger: createLogger('silent'), clock: app.clock }) };
    return second.ctx;
  };

  it('send each e-mail once, and a worker that dies holding e-mails hands them over when its lease runs out', async () => {
    const client = await bank();
    const people = [];
    for (let i = 0; i < 4; i++) people.push(await customer(client));
    for (const { userId } of people) {
      await raiseAlert(client, userId, 'new_inquiry');
      await raiseAlert(client, userId, 'late_payment');
    }
    const other = await otherWorker();
    await Promise.all([sendDue(), runAlertEmailsUntilIdle(other), sendDue(), runAlertEmailsUntilIdle(other)]);
    const received = people.flatMap(({ email }) => mailsTo(email));
    expect(received).toHaveLength(8);
    const messageIds = received.map((mail) => parseMail(mail.raw).headers.get('message-id'));
    expect(new Set(messageIds).size).toBe(8);

    // A claim whose worker never sends: nobody else sends it until the lease has run out, then exactly once.
    const late = await customer(client);
    await raiseAlert(client, late.userId);
    await app.db.query(
      `update alert_emails set lease_token = 'dead-worker', lease_until = $2 where user_id = $1 and state = 'pending'`,
      [late.userId, new Date(app.clock.now().getTime() + app.ctx.config.ALERT_EMAIL_LEASE_SECONDS * 1000)],
    );
    await Promise.all([sendDue(), runAlertEmailsUntilIdle(other)]);
    expect(mailsTo(late.email)).toEqual([]);
    app.clock.advance(app.ctx.config.ALERT_EMAIL_LEASE_SECONDS * 1000);
    await Promise.all([sendDue(), runAlertEmailsUntilIdle(other)]);
    expect(mailsTo(late.email)).toHaveLength(1);
  });
});

describe('alerts monitoring finds', () => {
  it('each reach the customer once, in e-mails that say no more than that there is one', async () => {
    const client = await bank();
    const { userId, email } = await customer(client, { ssn: '1001' });
    await runMonitoringUntilIdle(app.ctx);
    // A year of monthly periods: story 1001 raises every alert type along the way.
    for (let month = 1; month <= 12; month++) {
      app.clock.advance(30 * DAY);
      await runMonitoringUntilIdle(app.ctx);
    }
    await sendDue();
    const alerts = (await app.db.query<{ id: string }>('select id from alerts where user_id = $1', [userId])).rows;
    expect(alerts.length).toBeGreaterThan(3);
    const received = mailsTo(email).map((mail) => parseMail(mail.raw));
    expect(received).toHaveLength(alerts.length);
    expect(new Set(received.map((mail) => mail.headers.get('subject')))).toEqual(new Set(['You have a new credit alert']));
    const announced = (await emailEvents(client.id, userId)).flatMap((e) => e.data.alertIds as string[]);
    expect(announced.sort()).toEqual(alerts.map((a) => a.id).sort());
  });
});

describe('retention', () => {
  it('deletes settled e-mails past ALERT_RETENTION_MONTHS, and their unsubscribe links with them', async () => {
    const client = await bank();
    const { userId, email } = await customer(client);
    await raiseAlert(client, userId);
    await sendDue();
    const url = unsubscribeUrlOf(parseMail(mailsTo(email)[0]?.raw ?? ''));
    expect((await visit(url)).status).toBe(200);
    expect(await pruneSettledAlertEmails(app.ctx)).toBe(0);
    const longAgo = new Date(app.clock.now());
    longAgo.setUTCMonth(longAgo.getUTCMonth() - app.ctx.config.ALERT_RETENTION_MONTHS - 1);
    await app.db.query('update alert_emails set settled_at = $2 where user_id = $1', [userId, longAgo]);
    expect(await pruneSettledAlertEmails(app.ctx)).toBe(1);
    expect(await emailRows(userId)).toEqual([]);
    expect((await visit(url)).status).toBe(404);
  });
});

describe('the settings', () => {
  it('are refused with the flag and the reason when invalid, and e-mails on need a link and a reply-to', async () => {
    const refused = async (settings: Partial<AlertEmailSettings>, message: RegExp) =>
      expect(app.createClient({ alertEmails: settings })).rejects.toThrow(message);
    await refused({ logoUrl: 'http://bank.example/logo.png' }, /--alert-email-logo must be an https:\/\/ URL/);
    await refused({ linkUrl: 'javascript:alert(1)' }, /--alert-email-link must be an https:\/\/ URL/);
    await refused({ brandColor: 'green' }, /--alert-email-color must be a colour written #rrggbb/);
    await refused({ replyTo: 'not an address' }, /--alert-email-reply-to must be an e-mail address/);
    await refused({ displayName: 'Bank\r\nBcc: x@y.example' }, /--alert-email-name must not contain line breaks/);
    await refused({ mode: 'weekly' as 'each' }, /--alert-email-mode must be one of each, daily_digest/);
    await refused({ enabled: true, linkUrl: BANK_PAGE }, /--alert-emails on needs --alert-email-reply-to/);

    const client = await app.createClient();
    await expect(changeClient(app.db, client.id, { alertEmails: { enabled: true } })).rejects.toThrow(
      /--alert-emails on needs --alert-email-link and --alert-email-reply-to/,
    );
    await changeClient(app.db, client.id, { alertEmails: { linkUrl: BANK_PAGE, replyTo: 'help@bank.example' } });
    await changeClient(app.db, client.id, { alertEmails: { enabled: true } });
    await expect(changeClient(app.db, client.id, { alertEmails: { linkUrl: null } })).rejects.toThrow(
      /--alert-emails on needs --alert-email-link/,
    );
  });
});

// Runs of the built CLI: several seconds each under load.
describe('pnpm clients and the alert e-mail flags', { timeout: 90_000 }, () => {
  it('creates with e-mails off, turns them on with the bank’s details, shows them, and refuses bad values', async () => {
    const env = { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'credit-data-')) };
    const created = await runCli(['create', '--name', 'First Bank', '--email', 'ops@firstbank.test'], env);
    expect(created.code, created.stderr).toBe(0);
    const client = JSON.parse(created.stdout);
    expect(client.alertEmails).toMatchObject({ enabled: false, mode: 'each', displayName: 'First Bank', linkUrl: null });

    const updated = await runCli(
      [
        'update',
        client.clientId,
        '--alert-emails',
        'on',
        '--alert-email-link',
        'https://www.firstbank.example/credit',
        '--alert-email-reply-to',
        'help@firstbank.example',
        '--alert-email-name',
        'First Bank Alerts',
        '--alert-email-color',
        '#123abc',
        '--alert-email-mode',
        'daily_digest',
      ],
      env,
    );
    expect(updated.code, updated.stderr).toBe(0);
    const shown = await runCli(['show', client.clientId], env);
    expect(JSON.parse(shown.stdout).alertEmails).toEqual({
      enabled: true,
      mode: 'daily_digest',
      displayName: 'First Bank Alerts',
      replyTo: 'help@firstbank.example',
      linkUrl: 'https://www.firstbank.example/credit',
      logoUrl: null,
      brandColor: '#123abc',
    });

    const bad = await runCli(['update', client.clientId, '--alert-email-logo', 'http://firstbank.example/logo.png'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--alert-email-logo must be an https:\/\/ URL/);
    const off = await runCli(['update', client.clientId, '--alert-emails', 'maybe'], env);
    expect(off.code).toBe(1);
    expect(off.stderr).toMatch(/--alert-emails is on or off, not maybe/);
    const listed = await runCli(['list'], env);
    expect(JSON.parse(listed.stdout)[0].alertEmails.enabled).toBe(true);
  });
});
