/**
 * The words and layout of an alert e-mail. It says that there is a new alert (or how many, for a day's digest) and
 * where to read it, and nothing else: no score, no account, no lender, no alert title, no personal data but the first
 * name (GLBA: an e-mail can be read by anyone who sees the inbox, so it carries no nonpublic personal information).
 */

export type EmailLocale = 'en' | 'es';

export interface AlertEmailContent {
  locale: EmailLocale;
  bankName: string;
  firstName: string | null;
  /** How many new alerts: 1 for an e-mail of one alert. */
  alertCount: number;
  /** The customer's day a digest covers (`YYYY-MM-DD`); null for an e-mail of one alert. */
  digestDay: string | null;
  linkUrl: string;
  unsubscribeUrl: string;
  logoUrl: string | null;
  brandColor: string | null;
}

export interface ComposedEmail {
  subject: string;
  text: string;
  html: string;
}

const DEFAULT_BRAND_COLOR = '#0b5cad';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const dayName = (locale: EmailLocale, day: string) =>
  new Intl.DateTimeFormat(locale === 'es' ? 'es-US' : 'en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00.000Z`),
  );

interface Words {
  subject: (count: number) => string;
  greeting: (firstName: string | null) => string;
  news: (c: AlertEmailContent) => string;
  why: string;
  action: (bank: string) => string;
  button: (bank: string) => string;
  footer: (bank: string) => string;
  stop: string;
}

const WORDS: Record<EmailLocale, Words> = {
  en: {
    subject: (count) => (count === 1 ? 'You have a new credit alert' : `You have ${count} new credit alerts`),
    greeting: (firstName) => (firstName ? `Hi ${firstName},` : 'Hello,'),
    news: (c) => {
      const where = `in your credit monitoring with ${c.bankName}`;
      if (!c.digestDay) return `There is a new alert ${where}.`;
      const day = dayName('en', c.digestDay);
      return c.alertCount === 1
        ? `There was 1 new alert ${where} on ${day}.`
        : `There were ${c.alertCount} new alerts ${where} on ${day}.`;
    },
    why: 'For your security, this e-mail does not say what changed.',
    action: (bank) => `Sign in to ${bank} to read your alerts:`,
    button: (bank) => `See your alerts at ${bank}`,
    footer: (bank) => `You get this e-mail because alert e-mails are on for your credit monitoring with ${bank}.`,
    stop: 'Stop these e-mails',
  },
  es: {
    subject: (count) => (count === 1 ? 'Tiene una nueva alerta de crédito' : `Tiene ${count} nuevas alertas de crédito`),
    greeting: (firstName) => (firstName ? `Hola, ${firstName}:` : 'Hola:'),
    news: (c) => {
      const where = `en su monitoreo de crédito con ${c.bankName}`;
      if (!c.digestDay) return `Hay una nueva alerta ${where}.`;
      const day = dayName('es', c.digestDay);
      return c.alertCount === 1
        ? `El ${day} hubo 1 nueva alerta ${where}.`
        : `El ${day} hubo ${c.alertCount} nuevas alertas ${where}.`;
    },
    why: 'Por su seguridad, este correo no dice qué cambió.',
    action: (bank) => `Inicie sesión en ${bank} para leer sus alertas:`,
    button: (bank) => `Ver sus alertas en ${bank}`,
    footer: (bank) =>
      `Recibe este correo porque las alertas por correo electrónico están activadas en su monitoreo de crédito con ${bank}.`,
    stop: 'Dejar de recibir estos correos',
  },
};

/** Dark text on a light brand colour, white on a dark one (WCAG relative luminance). */
const textOn = (hex: string): string => {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return luminance > 0.4 ? '#1a1f2b' : '#ffffff';
};

const textBody = (c: AlertEmailContent, w: Words): string =>
  [
    w.greeting(c.firstName),
    '',
    w.news(c),
    '',
    `${w.why} ${w.action(c.bankName)}`,
    c.linkUrl,
    '',
    c.bankName,
    '',
    '--',
    w.footer(c.bankName),
    `${w.stop}: ${c.unsubscribeUrl}`,
    '',
  ].join('\n');

const htmlBody = (c: AlertEmailContent, w: Words, subject: string): string => {
  const color = c.brandColor ?? DEFAULT_BRAND_COLOR;
  const bank = escapeHtml(c.bankName);
  const header = c.logoUrl
    ? `<img src="${escapeHtml(c.logoUrl)}" alt="${bank}" height="40" style="display:block;height:40px;max-width:240px;border:0">`
    : `<strong style="font-size:18px">${bank}</strong>`;
  const paragraph = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
  return `<!doctype html>
<html lang="${c.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f3f5f9">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f5f9">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-top:6px solid ${color};border-radius:6px;font:16px/1.5 Arial,Helvetica,sans-serif;color:#1a1f2b">
<tr><td style="padding:24px 24px 8px">${header}</td></tr>
<tr><td style="padding:16px 24px 8px">
${paragraph(w.greeting(c.firstName))}
${paragraph(w.news(c))}
${paragraph(w.why)}
<p style="margin:0 0 24px"><a href="${escapeHtml(c.linkUrl)}" style="display:inline-block;padding:12px 20px;border-radius:6px;background:${color};color:${textOn(color)};font-weight:bold;text-decoration:none">${escapeHtml(w.button(c.bankName))}</a></p>
</td></tr>
<tr><td style="padding:16px 24px 24px;border-top:1px solid #e3e6ed;font-size:13px;color:#4a5163">
<p style="margin:0 0 8px">${escapeHtml(w.footer(c.bankName))}</p>
<p style="margin:0"><a href="${escapeHtml(c.unsubscribeUrl)}" style="color:#4a5163">${escapeHtml(w.stop)}</a></p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
};

export const composeAlertEmail = (content: AlertEmailContent): ComposedEmail => {
  const words = WORDS[content.locale];
  const subject = words.subject(content.alertCount);
  return { subject, text: textBody(content, words), html: htmlBody(content, words, subject) };
};
