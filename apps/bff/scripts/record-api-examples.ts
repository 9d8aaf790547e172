/**
 * `pnpm examples`: records one real request and answer for every operation of the contract, from a sandbox instance
 * in this process (in-memory database, a fixed clock, predictable ids), and writes them to
 * packages/contract/src/examples.generated.ts, which the OpenAPI document shows as each operation's example.
 * packages/contract/test/examples.test.ts fails when an operation has no example or an example no longer validates
 * against its schemas, so a contract change that outdates them asks for this command to be run again.
 *
 * Paths come from the contract's operations (their `{param}` templates filled in), never written here.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ALL_OPERATIONS, type Operation } from '@credit/contract';
import { createApp } from '../src/app.ts';
import { buildContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { openPglite } from '../src/db/pglite.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { runClockAdvancesUntilIdle } from '../src/modules/clocks/service.ts';
import { startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { listen } from '../src/server.ts';

interface Recorded {
  request?: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown };
  response: { status: number; body?: unknown };
}

const OUT = path.resolve(import.meta.dirname, '../../../packages/contract/src/examples.generated.ts');
const SECRET = 'sk_example_0123456789abcdefghijklmnopqrstuv';

/** Ids that read like ids but are the same at every run: `usr_` + a counter spelled in letters and digits. */
const predictableIds = () => {
  const counters = new Map<string, number>();
  return {
    id(prefix: string) {
      const next = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, next);
      return `${prefix}_${`Ex4mple${next}`.padEnd(20, 'aB3dE5fG7hJ9kL2mN4pQ')}`.slice(0, prefix.length + 21);
    },
  };
};

/** Secrets and one-off values a real run produces, replaced so the committed file stays the same between runs. */
const scrub = (text: string) =>
  text
    .replace(/\b(at|ut)_sbx_[A-Za-z0-9]{20,80}/g, '$1_sbx_3fKq8ZsT1xWc7YpLm2Rn9VbG')
    .replace(/\bcst_sbx_[A-Za-z0-9]{40}/g, 'cst_sbx_4Fh8Kq2Lm9Xz4Pw7RnBv3Tc6Yd1Ue5Ga8Hb0Jc2')
    .replace(/\bcli_sbx_[A-Za-z0-9]{8,40}/g, 'cli_sbx_9aF3kQ2xLm7PzR4t')
    .replace(/\breq_[A-Za-z0-9]{20}\b/g, 'req_5tGh8Kq2Lm9Xz4Pw7RnB')
    .replace(/"csrfToken": "[^"]+"/g, '"csrfToken": "5fe1cb1104dc451a9afb6baf7da96531c0653601c9adee105cf3693ef585e831"')
    .replace(/"responseTime": \d+/g, '"responseTime": 84')
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:3000');

const main = async () => {
  const config = loadConfig({
    // The recorded webhook's receiver runs on this machine, as a developer's does with `pnpm start`.
    WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: '/nonexistent',
    RATE_LIMIT_USER_OPS_PER_MIN: '100000',
    // Fixed keys (for this throwaway instance only): cursors, question choices and ids come out the same every run.
    TOKEN_SIGNING_KEY: Buffer.alloc(32, 7).toString('base64'),
    DATA_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
  });
  const db = await openPglite();
  const clock = new ManualClock('2026-03-16T14:30:00.000Z');
  const ctx = await buildContext({ config, db, logger: createLogger('silent'), clock, ids: predictableIds() });
  const server = await listen(createApp(ctx), config);
  config.PUBLIC_URL = server.url;
  const recorded: Record<string, Recorded> = {};
  const operation = (id: string): Operation => {
    const found = ALL_OPERATIONS.find((op) => op.operationId === id);
    if (!found) throw new Error(`no operation ${id}`);
    return found;
  };

  /** Calls one operation as a partner would, records it, and answers the body. */
  const call = async (
    id: string,
    parts: Recorded['request'] & { token?: string; headers?: Record<string, string>; form?: Record<string, string> } = {},
  ) => {
    const op = operation(id);
    const filled = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(parts.params?.[name] ?? ''));
    const query = parts.query ? `?${new URLSearchParams(parts.query)}` : '';
    const headers: Record<string, string> = { ...parts.headers };
    if (parts.token) headers.authorization = `Bearer ${parts.token}`;
    let body: string | undefined;
    if (parts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(parts.form).toString();
    } else if (parts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(parts.body);
    }
    const response = await fetch(`${server.url}${filled}${query}`, { method: op.method.toUpperCase(), headers, body });
    const text = await response.text();
    const answer = text ? JSON.parse(text) : undefined;
    if (response.status !== op.success.status) throw new Error(`${id}: ${response.status} ${text}`);
    recorded[id] ??= {
      request: {
        ...(parts.params ? { params: parts.params } : {}),
        ...(parts.query ? { query: parts.query } : {}),
        ...(parts.form ? { body: parts.form } : parts.body !== undefined ? { body: parts.body } : {}),
      },
      response: { status: response.status, ...(answer !== undefined ? { body: answer } : {}) },
    };
    return { answer, response };
  };

  try {
    const { client } = await createClient(db, clock, 'sandbox', {
      name: 'Maple Bank',
      contactEmail: 'ops@maple.example',
      secret: SECRET,
      embedOrigins: ['https://www.maple.example'],
    });
    let token = (
      await call('createAccessToken', { form: { grant_type: 'client_credentials', client_id: client.id, client_secret: SECRET } })
    ).answer.access_token as string;
    const jane = {
      externalUserId: 'cust-1001',
      email: 'jane.doe@example.com',
      firstName: 'Jane',
      lastName: 'Doe',
      ssn: '1234',
      dateOfBirth: '1985-04-12',
      address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
      phone: '+12175550123',
    };
    const userId = (await call('enrollUser', { token, body: jane })).answer.data.userId as string;
    await call('enrollUsersBatch', {
      token,
      body: {
        users: [
          { ...jane, externalUserId: 'cust-1002', email: 'sam.lee@example.com', firstName: 'Sam', lastName: 'Lee', ssn: '4321' },
          { ...jane, externalUserId: 'cust-1001' },
        ],
      },
    });
    await call('listUsers', { token, query: { status: 'pending_verification', limit: '2' } });
    await call('getUser', { token, params: { userId } });
    // Jane told the bank (Maple) she agrees: the bank attests it, which replaces the sandbox default of her enrolment.
    await call('grantConsent', {
      token,
      params: { userId },
      body: {
        termsVersion: ctx.config.CONSENT_TERMS_VERSION,
        method: 'partner_attested',
        acceptedAt: clock.now().toISOString(),
        ipAddress: '203.0.113.7',
        userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Safari/605.1.15',
      },
    });
    await call('getConsent', { token, params: { userId } });
    await call('listConsentHistory', { token, params: { userId }, query: { limit: '2' } });
    const session = (await call('getVerificationQuestions', { token, params: { userId } })).answer.data;
    const key = (
      await call('sandboxGetVerificationAnswers', { token, params: { userId }, query: { sessionId: session.sessionId } })
    ).answer.data;
    await call('submitVerificationAnswers', {
      token,
      params: { userId },
      body: { sessionId: session.sessionId, answers: key.answers },
    });
    await call('getCreditScore', { token, params: { userId } });
    const report = (await call('getCreditReport', { token, params: { userId } })).answer.data as {
      accounts: { accountId: string; type: string; status: string; balance: number; utilizationPercent: number | null }[];
    };
    // "If I pay my fullest card down by half, and pay on time for 6 months": the card comes from the report.
    const [card] = report.accounts
      .filter((a) => a.type === 'credit_card' && a.status === 'open' && a.balance > 0)
      .sort((a, b) => (b.utilizationPercent ?? 0) - (a.utilizationPercent ?? 0));
    await call('simulateCreditScore', {
      token,
      params: { userId },
      body: {
        actions: [
          ...(card ? [{ type: 'pay_down_balance', accountId: card.accountId, amount: Math.ceil(card.balance / 2) }] : []),
          { type: 'pay_on_time', months: 6 },
        ],
      },
    });
    await call('listCreditScoreHistory', { token, params: { userId }, query: { months: '6', limit: '3' } });
    await call('listOffers', { token, query: { type: 'credit_card', limit: '2' } });
    const offers = (await call('listUserOffers', { token, params: { userId }, query: { limit: '2' } })).answer.data;
    const offerId = offers[0].offerId as string;
    await call('recordOfferImpressions', {
      token,
      params: { userId },
      body: { offerIds: offers.map((o: { offerId: string }) => o.offerId) },
    });
    const click = (
      await call('recordOfferClick', {
        token,
        params: { userId, offerId },
        body: { source: 'dashboard', metadata: { page: 'offers', position: 0 } },
      })
    ).answer.data;
    // The bank's application reports its progress against the click it came from.
    await call('recordOfferOutcome', { token, params: { clickId: click.clickId }, body: { stage: 'applied' } });
    await call('getOfferClick', { token, params: { clickId: click.clickId } });
    await call('sandboxConvertOffer', { token, params: { userId, offerId } });
    // Maple Bank adds its own auto refinance: two rate bands, who qualifies, its costs.
    const created = (
      await call('createOffer', {
        token,
        body: {
          type: 'loan',
          name: 'Maple Auto Refinance',
          description: 'Move your car loan to Maple for a lower fixed rate.',
          aprType: 'fixed',
          tiers: [
            { minScore: 660, maxScore: 739, apr: 7.49, creditLimit: { min: 5000, max: 50000 } },
            { minScore: 740, maxScore: 850, apr: 5.24, creditLimit: { min: 5000, max: 75000 } },
          ],
          rules: {
            minScore: 660,
            noDelinquencyMonths: 12,
            states: ['IL', 'WI'],
            refinance: { accountKinds: ['auto_loan'], minBalance: 5000, minAprAbove: 1 },
          },
          costs: { annualFee: 0, originationFeePercent: 0.5 },
          termMonths: 60,
          applicationUrl: 'https://apply.maple.example/auto-refinance?click={clickId}&customer={externalUserId}',
        },
      })
    ).answer.data;
    await call('getOffer', { token, params: { offerId: created.offerId } });
    await call('updateOffer', {
      token,
      params: { offerId: created.offerId },
      body: { description: 'Move your car loan to Maple for a lower fixed rate; no payment for 60 days.' },
    });
    await call('getOfferVersion', { token, params: { offerId: created.offerId, version: '1' } });
    await call('pauseOffer', { token, params: { offerId: created.offerId } });
    await call('resumeOffer', { token, params: { offerId: created.offerId } });
    await call('listOfferAudience', { token, params: { offerId }, query: { limit: '2' } });
    await call('previewOfferAudience', {
      token,
      body: {
        type: 'credit_card',
        tiers: [{ minScore: 680, maxScore: 850, apr: 18.99, creditLimit: { min: 2000, max: 12000 } }],
        rules: { minScore: 680, maxUtilization: 50 },
      },
    });
    const today = clock.now().toISOString().slice(0, 10);
    await call('getProgramResults', { token, query: { from: today, to: today, interval: 'day' } });
    await call('archiveOffer', { token, params: { offerId: created.offerId } });
    // A month on, the customer asks for a fresh score (a refresh now pulls the file as of that day).
    clock.advance(31 * 24 * 3600 * 1000);
    token = (
      await call('createAccessToken', { form: { grant_type: 'client_credentials', client_id: client.id, client_secret: SECRET } })
    ).answer.access_token as string;
    await call('refreshCreditScore', { token, params: { userId } });
    await call('sandboxRefreshScore', { token, params: { userId }, body: { score: 742 } });
    const alert = (await call('sandboxCreateAlert', { token, params: { userId }, body: { type: 'new_inquiry' } })).answer.data;
    await call('listAlerts', { token, params: { userId }, query: { status: 'unread', limit: '2' } });
    await call('updateAlert', { token, params: { userId, alertId: alert.alertId }, body: { status: 'read' } });
    const userToken = (
      await call('createUserToken', {
        token,
        body: { externalUserId: jane.externalUserId, email: jane.email, firstName: jane.firstName, lastName: jane.lastName },
      })
    ).answer.data.userToken as string;
    await call('getMe', { token: userToken });
    const widget = await call('createWidgetSession', { token: userToken, body: { parentOrigin: 'https://www.maple.example' } });
    const cookie = widget.response.headers.get('set-cookie')?.split(';')[0] ?? '';
    await call('getWidgetSession', { headers: { cookie, 'x-widget-csrf': widget.answer.data.csrfToken } });
    const webhook = (
      await call('createWebhook', {
        token,
        body: {
          url: 'https://localhost:8443/credit-hooks',
          events: ['score.changed', 'alert.created'],
          secret: 'whsec_example_0123456789',
        },
      })
    ).answer.data;
    await call('listWebhooks', { token, query: { limit: '2' } });
    await call('getWebhook', { token, params: { webhookId: webhook.webhookId } });
    await call('updateWebhook', { token, params: { webhookId: webhook.webhookId }, body: { events: ['score.changed'] } });
    await call('rotateWebhookSecret', { token, params: { webhookId: webhook.webhookId }, body: {} });
    await call('testWebhook', { token, params: { webhookId: webhook.webhookId }, body: { eventType: 'score.changed' } });
    // A real delivery, to a receiver that is down: the score changes, one dispatcher pass tries it, then it is resent.
    await call('sandboxRefreshScore', { token, params: { userId }, body: { score: 748 } });
    const dispatcher = startDispatcher(ctx, { poll: false });
    await dispatcher.runOnce();
    await dispatcher.stop();
    const delivery = (
      await call('listWebhookDeliveries', { token, params: { webhookId: webhook.webhookId }, query: { limit: '2' } })
    ).answer.data.find((entry: { attempt?: number }) => entry.attempt !== undefined); // a test delivery has no attempt
    await call('retryWebhookDelivery', { token, params: { webhookId: webhook.webhookId, deliveryId: delivery.deliveryId } });
    await call('recoverWebhook', {
      token,
      params: { webhookId: webhook.webhookId },
      body: { since: new Date(clock.now().getTime() - 86_400_000).toISOString() },
    });
    const events = (await call('listEvents', { token, query: { type: 'score.changed', limit: '2' } })).answer.data;
    await call('getEvent', { token, params: { eventId: events[0].id } });
    await call('deleteWebhook', { token, params: { webhookId: webhook.webhookId } });
    // A test clock: Sam (enrolled, then verified) is moved to the start of 2028, then the clock and Sam are deleted. The
    // clock starts now (no frozenTime) and the advance names a time still ahead, so the shown requests stay valid.
    const sam = (await call('listUsers', { token, query: { externalUserId: 'cust-1002' } })).answer.data[0].userId as string;
    const testClock = (await call('createSandboxClock', { token, body: { name: 'Sam in 2028' } })).answer.data;
    await call('listSandboxClocks', { token, query: { limit: '2' } });
    await call('attachSandboxClockUsers', { token, params: { clockId: testClock.clockId }, body: { userIds: [sam] } });
    await call('advanceSandboxClock', {
      token,
      params: { clockId: testClock.clockId },
      body: { frozenTime: '2028-01-01T00:00:00.000Z' },
    });
    await call('getSandboxClock', { token, params: { clockId: testClock.clockId } });
    await runClockAdvancesUntilIdle(ctx);
    await call('deleteSandboxClock', { token, params: { clockId: testClock.clockId } });
    await call('withdrawConsent', { token, params: { userId } });
    // The audit trail of Jane's consent: given at enrolment, attested, withdrawn.
    await call('listAuditEvents', { token, query: { userId, type: 'consent.given', limit: '2' } });
    await call('verifyAuditTrail', { token });
    await call('createConsoleLink', {
      token,
      body: { staff: { id: 'emp-4821', email: 'ana.ruiz@maple.example' }, role: 'viewer' },
    });
    // A rotation with a day's overlap: the token above, minted with the previous secret, keeps working.
    await call('rotateClientSecret', { token, body: { overlapSeconds: 86_400 } });
    await call('getClientCredentials', { token });
    await call('deleteUser', { token, params: { userId } });

    const missing = ALL_OPERATIONS.map((op) => op.operationId).filter((id) => !recorded[id]);
    if (missing.length) throw new Error(`no example recorded for ${missing.join(', ')}`);
    const ordered = Object.fromEntries(ALL_OPERATIONS.map((op) => [op.operationId, recorded[op.operationId]]));
    writeFileSync(
      OUT,
      `// Generated by \`pnpm examples\` (apps/bff/scripts/record-api-examples.ts) from a sandbox run: do not edit.\n` +
        `// One real request and answer per operation, shown in the OpenAPI document; checked by test/examples.test.ts.\n` +
        `export const RECORDED_EXAMPLES: Record<string, { request?: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown }; response: { status: number; body?: unknown } }> = ${scrub(JSON.stringify(ordered, null, 2))};\n`,
    );
    process.stdout.write(`Recorded ${Object.keys(ordered).length} operations into ${path.relative(process.cwd(), OUT)}\n`);
  } finally {
    await server.close();
    await db.close();
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
