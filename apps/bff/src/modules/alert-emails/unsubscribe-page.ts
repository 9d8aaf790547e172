import { createHash } from 'node:crypto';

type Locale = 'en' | 'es';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const STYLE = `
:root { color-scheme: light dark; --fg: #1a1f2b; --muted: #4a5163; --bg: #ffffff; --accent: #0b5cad; --on-accent: #ffffff; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8ebf2; --muted: #b5bccb; --bg: #12151c; --accent: #8cc2ff; --on-accent: #12151c; } }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 34rem; margin: 0 auto; padding: 2rem 1rem 3rem; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 1rem; }
p { margin: 0 0 1rem; }
.muted { color: var(--muted); }
button { font: inherit; font-weight: 600; padding: 0.7rem 1.2rem; border: 0; border-radius: 0.4rem; background: var(--accent); color: var(--on-accent); cursor: pointer; }
a { color: var(--accent); }
hr { border: 0; border-top: 1px solid var(--muted); opacity: 0.3; margin: 2rem 0; }
`;

const styleHash = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** Nothing loads or runs; the one form posts back to this page. */
export const UNSUBSCRIBE_CSP = [
  "default-src 'none'",
  `style-src ${styleHash}`,
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const layout = (lang: string, title: string, body: string) => `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;

interface Bank {
  bankName: string;
  bankUrl: string | null;
}

/** The same page in the other language: a relative address that keeps the token. */
export interface OtherLanguage {
  href: string;
}

const WORDS = {
  en: {
    askTitle: (bank: string) => `Stop alert e-mails from ${bank}?`,
    ask: 'You will no longer get an e-mail when there is a new alert in your credit monitoring. Your alerts stay where you read them now.',
    button: 'Stop alert e-mails',
    doneTitle: 'You are unsubscribed',
    done: (bank: string) => `You will not get alert e-mails from ${bank} any more. Your credit monitoring goes on.`,
    back: (bank: string) => `Back to ${bank}`,
    other: 'En español',
  },
  es: {
    askTitle: (bank: string) => `¿Dejar de recibir correos de alertas de ${bank}?`,
    ask: 'Ya no recibirá un correo cuando haya una nueva alerta en su monitoreo de crédito. Sus alertas siguen donde las lee ahora.',
    button: 'Dejar de recibir correos de alertas',
    doneTitle: 'Ya no está suscrito',
    done: (bank: string) => `Ya no recibirá correos de alertas de ${bank}. Su monitoreo de crédito continúa.`,
    back: (bank: string) => `Volver a ${bank}`,
    other: 'In English',
  },
} as const;

const otherLanguageLink = (locale: Locale, other: OtherLanguage) =>
  `<p class="muted"><a href="${escapeHtml(other.href)}" lang="${locale === 'en' ? 'es' : 'en'}">${escapeHtml(WORDS[locale].other)}</a></p>`;

const backLink = (locale: Locale, bank: Bank) =>
  bank.bankUrl ? `<p><a href="${escapeHtml(bank.bankUrl)}">${escapeHtml(WORDS[locale].back(bank.bankName))}</a></p>` : '';

/**
 * The page a GET shows: a button that POSTs the one-click form back to the same address, so a link scanner that
 * follows the link unsubscribes no one.
 */
export const renderUnsubscribeQuestion = (locale: Locale, bank: Bank, other: OtherLanguage): string => {
  const w = WORDS[locale];
  return layout(
    locale,
    w.askTitle(bank.bankName),
    `<h1>${escapeHtml(w.askTitle(bank.bankName))}</h1>
<p>${escapeHtml(w.ask)}</p>
<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">${escapeHtml(w.button)}</button>
</form>
${backLink(locale, bank)}
${otherLanguageLink(locale, other)}`,
  );
};

export const renderUnsubscribed = (locale: Locale, bank: Bank, other: OtherLanguage): string => {
  const w = WORDS[locale];
  return layout(
    locale,
    w.doneTitle,
    `<h1>${escapeHtml(w.doneTitle)}</h1>
<p>${escapeHtml(w.done(bank.bankName))}</p>
${backLink(locale, bank)}
${otherLanguageLink(locale, other)}`,
  );
};

const PROBLEMS = {
  malformed: {
    en: ['This link is incomplete', 'Open the link from the e-mail again, or copy all of it into the address bar.'],
    es: [
      'Este enlace está incompleto',
      'Vuelva a abrir el enlace del correo, o copie el enlace completo en la barra de direcciones.',
    ],
  },
  unknown: {
    en: [
      'This link does not work',
      'It is not a link from one of our e-mails, or it is too old. Use the link in a recent e-mail.',
    ],
    es: [
      'Este enlace no funciona',
      'No es un enlace de uno de nuestros correos, o es demasiado antiguo. Use el enlace de un correo reciente.',
    ],
  },
  form: {
    en: [
      'Use the button to unsubscribe',
      'This address takes the form of the unsubscribe page: open the link and press its button.',
    ],
    es: [
      'Use el botón para cancelar la suscripción',
      'Esta dirección recibe el formulario de la página: abra el enlace y pulse su botón.',
    ],
  },
} as const;

export type UnsubscribeProblem = keyof typeof PROBLEMS;

/** A bad link names no customer, so no language is known: the page says it in both. */
export const renderUnsubscribeProblem = (problem: UnsubscribeProblem): string => {
  const { en, es } = PROBLEMS[problem];
  return layout(
    'en',
    `${en[0]} · ${es[0]}`,
    `<h1>${escapeHtml(en[0])}</h1>
<p>${escapeHtml(en[1])}</p>
<hr>
<div lang="es">
<h1>${escapeHtml(es[0])}</h1>
<p>${escapeHtml(es[1])}</p>
</div>`,
  );
};
