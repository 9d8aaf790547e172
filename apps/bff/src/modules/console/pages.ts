import { createHash } from 'node:crypto';
import path from 'node:path';
import { REPO_ROOT } from '../../lib/repo-root.ts';
import type { LinkRefusal } from './service.ts';

/** Where the built console lives; `pnpm build` (run by `pnpm start` and `pnpm test`) writes it (apps/console). */
export const CONSOLE_DIST_DIR = path.join(REPO_ROOT, 'apps/console/dist');
export const CONSOLE_ASSETS_DIR = path.join(CONSOLE_DIST_DIR, 'assets');
export const CONSOLE_INDEX_FILE = path.join(CONSOLE_DIST_DIR, 'index.html');

/** The pages of the app (its client-side routes): each answers the app's index.html. */
export const CONSOLE_APP_PATHS = [
  '/console/',
  '/console/program',
  '/console/offers',
  '/console/webhooks',
  '/console/events',
  '/console/audit',
  '/console/customers',
  '/console/credentials',
  '/console/sandbox',
];

/** The sign-in page's own styles: allowed by their hash, so its policy needs no `'unsafe-inline'`. */
const PAGE_STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a2e;background:#f6f7fb}' +
  'main{max-width:34rem;margin:12vh auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}' +
  'h1{font-size:1.4rem;margin:0 0 .75rem}p{margin:.5rem 0}';
const PAGE_STYLE_HASH = `'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`;

/**
 * The console's policy: its own scripts and styles only, no inline script, calls to its own origin, framed only by
 * `frameAncestors` (the client's embed origins, or nobody).
 */
export const consoleCsp = (frameAncestors: string, styleSource = "'self'"): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    `style-src ${styleSource}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');

/** The policy of the server's own pages (a link that cannot be opened): the page's one style block, nothing else. */
export const pageCsp = (): string => consoleCsp("'none'", PAGE_STYLE_HASH);

/** The languages of the server's own console pages: the console's two. */
export type PageLocale = 'en' | 'es';

/**
 * The language a page of ours speaks: `lang` when the console named it (its sign-out sends the language it was in),
 * else the browser's first choice of the two by `Accept-Language`, else English.
 */
export const pageLocale = (lang: unknown, acceptLanguage: string | undefined): PageLocale => {
  if (lang === 'en' || lang === 'es') return lang;
  let best: { locale: PageLocale; q: number } | undefined;
  for (const part of (acceptLanguage ?? '').split(',').slice(0, 20)) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';');
    const primary = tag.split('-')[0];
    if (primary !== 'en' && primary !== 'es') continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (Number.isFinite(q) && q > 0 && (!best || q > best.q)) best = { locale: primary, q };
  }
  return best?.locale ?? 'en';
};

interface PageText {
  title: string;
  text: string;
}

const REFUSALS: Record<PageLocale, Record<LinkRefusal, PageText>> = {
  en: {
    malformed: {
      title: 'This is not a console link',
      text: 'The address is incomplete. Open the link exactly as you received it, or ask for a new one.',
    },
    unknown: {
      title: 'This console link is not valid',
      text: 'No link like it was issued here. Ask your bank’s admin tools (or your administrator) for a new one.',
    },
    used: {
      title: 'This console link was already used',
      text:
        'A console link signs in once. If you signed in with it a moment ago, go back to that tab; otherwise ask for a ' +
        'new link: someone else may have opened this one.',
    },
    expired: {
      title: 'This console link has expired',
      text: 'A console link can be opened for ten minutes after it was made. Ask for a new one and open it straight away.',
    },
  },
  es: {
    malformed: {
      title: 'Este no es un enlace de la consola',
      text: 'La dirección está incompleta. Abra el enlace exactamente como lo recibió, o pida uno nuevo.',
    },
    unknown: {
      title: 'Este enlace de la consola no es válido',
      text:
        'Aquí no se emitió ningún enlace como este. Pida uno nuevo a las herramientas de administración de su banco (o a ' +
        'su administrador).',
    },
    used: {
      title: 'Este enlace de la consola ya se usó',
      text:
        'Un enlace de la consola inicia sesión una sola vez. Si lo usó hace un momento, vuelva a esa pestaña; si no, pida ' +
        'un enlace nuevo: puede que otra persona haya abierto este.',
    },
    expired: {
      title: 'Este enlace de la consola venció',
      text:
        'Un enlace de la consola se puede abrir durante diez minutos después de crearse. Pida uno nuevo y ábralo de ' +
        'inmediato.',
    },
  },
};

const REFUSAL_STATUS: Record<LinkRefusal, number> = { malformed: 400, unknown: 404, used: 410, expired: 410 };

const SIGNED_OUT: Record<PageLocale, PageText> = {
  en: {
    title: 'You are signed out of the console',
    text: 'To come back, open a new console link from your bank’s admin tools.',
  },
  es: {
    title: 'Cerró la sesión de la consola',
    text: 'Para volver, abra un nuevo enlace de la consola desde las herramientas de administración de su banco.',
  },
};

const NOT_BUILT: Record<PageLocale, PageText> = {
  en: {
    title: 'The console is not built on this instance',
    text: 'Run `pnpm build` (pnpm start does it for you), then reload.',
  },
  es: {
    title: 'La consola no está compilada en esta instancia',
    text: 'Ejecute `pnpm build` (pnpm start lo hace por usted) y vuelva a cargar la página.',
  },
};

const page = (locale: PageLocale, { title, text }: PageText) =>
  `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<meta name="referrer" content="no-referrer"><title>${title}</title><link rel="icon" href="data:,"><style>${PAGE_STYLE}</style></head>` +
  `<body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;

/** What a link that cannot be opened answers: a page that says why and what to do. */
export const refusalPage = (refusal: LinkRefusal, locale: PageLocale): { status: number; html: string } => ({
  status: REFUSAL_STATUS[refusal],
  html: page(locale, REFUSALS[locale][refusal]),
});

/** What a signed-out staff member sees. */
export const signedOutPage = (locale: PageLocale): string => page(locale, SIGNED_OUT[locale]);

export const notBuiltPage = (locale: PageLocale): string => page(locale, NOT_BUILT[locale]);
