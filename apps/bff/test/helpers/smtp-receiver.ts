import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpReceiver {
  url: string;
  mails: ReceivedMail[];
  /** Refuses the next `count` messages at RCPT TO with `451` (a temporary failure), as a mail server under load does. */
  refuseNext(count: number): void;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that keeps every message. */
export const startSmtpReceiver = async (): Promise<SmtpReceiver> => {
  const mails: ReceivedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refusals <= 0) return callback();
      refusals -= 1;
      callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refuseNext: (count) => {
      refusals = count;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
