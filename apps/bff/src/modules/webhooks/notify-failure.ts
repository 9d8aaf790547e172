import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { AppContext } from '../../context.ts';
import { findClient } from '../clients/service.ts';
import type { NoticeClaim } from './queue-repo.ts';

export interface FailureNotifier {
  notify(notice: NoticeClaim): Promise<void>;
  close(): void;
}

const message = (notice: NoticeClaim, from: string, to: string) => ({
  from,
  to,
  subject: `Webhook ${notice.id} is now "failed" after repeated delivery failures`,
  text: [
    `Your webhook subscription ${notice.id} (${new URL(notice.url).host}) did not answer 2xx to a delivery`,
    'or to any of its five retries, so its status is now "failed" and it receives no deliveries until you re-activate it.',
    ...(notice.last_error ? [`The last attempt failed with: ${notice.last_error}.`] : []),
    ...(notice.disabled_reason ? [`Its health (GET /v1/webhooks/${notice.id}) reads: "${notice.disabled_reason}".`] : []),
    '',
    'To get every event back:',
    '1. Check the attempts with GET /v1/webhooks/{webhookId}/logs and fix the receiver.',
    '2. Re-activate it: PATCH /v1/webhooks/{webhookId} {"status": "active"}. Deliveries still waiting resume on a fresh schedule.',
    '3. Recover what failed: POST /v1/webhooks/{webhookId}/recover {"since": "<when the outage began>"} queues again,',
    '   once each, every delivery that failed for good and every event sent while the subscription was "failed"',
    '   (up to 30 days back). GET /v1/events lists your events of the last 30 days to reconcile.',
  ].join('\n'),
});

/**
 * The one e-mail of a failed subscription, to the client's contact address: through SMTP_URL, or, with
 * none configured, written to DATA_DIR/webhook-notices so a local run still shows what would be sent.
 */
export const createFailureNotifier = (ctx: AppContext): FailureNotifier => {
  const { SMTP_URL, SMTP_FROM, DATA_DIR } = ctx.config;
  const transport = SMTP_URL
    ? nodemailer.createTransport(SMTP_URL)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async notify(notice) {
      const client = await findClient(ctx.db, notice.client_id);
      if (!client) return;
      const info = await transport.sendMail(message(notice, SMTP_FROM, client.contactEmail));
      if (!SMTP_URL) {
        const folder = path.join(DATA_DIR, 'webhook-notices');
        mkdirSync(folder, { recursive: true });
        const file = path.join(folder, `${notice.id}-${ctx.clock.now().getTime()}.eml`);
        writeFileSync(file, (info as { message: Buffer }).message);
        ctx.logger.warn({ webhookId: notice.id, file }, 'SMTP_URL not set; webhook failure notice written to a file');
      } else {
        ctx.logger.info({ webhookId: notice.id }, 'webhook failure notice sent');
      }
    },
    close: () => transport.close(),
  };
};
