import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { AppContext } from '../../context.ts';
import type { ComposedEmail } from './message.ts';

export interface OutgoingAlertEmail extends ComposedEmail {
  emailId: string;
  attempt: number;
  fromName: string;
  to: string;
  replyTo: string | null;
  unsubscribeUrl: string;
}

export interface AlertMailer {
  send(mail: OutgoingAlertEmail): Promise<void>;
  close(): void;
}

/** The address part of SMTP_FROM (`Credit API <no-reply@credit.example>` → `no-reply@credit.example`). */
export const senderAddress = (smtpFrom: string): string => /<([^<>\s]+)>\s*$/.exec(smtpFrom)?.[1] ?? smtpFrom.trim();

/**
 * The class of a failed hand-over, for the row and the `alert.email.failed` event: nodemailer's code and the SMTP reply
 * code, never the server's text (a refusal often quotes the recipient's address).
 */
export const smtpErrorClass = (error: unknown): string => {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const name = typeof code === 'string' && /^E[A-Z0-9_]{1,24}$/.test(code) ? code : 'ESEND';
  return typeof responseCode === 'number' && Number.isInteger(responseCode) ? `${name} ${responseCode}` : name;
};

/**
 * Sends through SMTP_URL; with none configured, writes each e-mail to DATA_DIR/alert-emails, as the webhook failure
 * notices do, so a local sandbox shows what its customers would receive.
 */
export const createAlertMailer = (ctx: AppContext): AlertMailer => {
  const { SMTP_URL, SMTP_FROM, DATA_DIR, ALERT_EMAIL_SMTP_TIMEOUT_MS: timeout } = ctx.config;
  const transport = SMTP_URL
    ? nodemailer.createTransport({
        url: SMTP_URL,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
      })
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const address = senderAddress(SMTP_FROM);
  const domain = address.split('@')[1] ?? 'localhost';
  return {
    async send(mail) {
      // A production instance never keeps customers' e-mails on its disk: without a mail server the attempt fails.
      if (!SMTP_URL && ctx.config.APP_ENV === 'production')
        throw Object.assign(new Error('SMTP_URL is not set'), { code: 'ENOSMTP' });
      const info = await transport.sendMail({
        from: { name: mail.fromName, address },
        to: mail.to,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        // The same id on every attempt, so a receiving server can tell a repeat after a lost answer.
        messageId: `<${mail.emailId}@${domain}>`,
        headers: {
          'List-Unsubscribe': `<${mail.unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          'Auto-Submitted': 'auto-generated',
        },
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      if (!SMTP_URL) {
        const folder = path.join(DATA_DIR, 'alert-emails');
        mkdirSync(folder, { recursive: true });
        const file = path.join(folder, `${mail.emailId}-${mail.attempt}.eml`);
        writeFileSync(file, (info as { message: Buffer }).message);
        ctx.logger.warn({ emailId: mail.emailId, file }, 'SMTP_URL not set; alert e-mail written to a file');
      }
    },
    close: () => transport.close(),
  };
};
