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

const REFUSALS: Record<LinkRefusal, { status: number; title: string; text: string }> = {
  malformed: {
    status: 400,
    title: 'This is not a console link',
    text: 'The address is incomplete. Open the link exactly as you received it, or ask for a new one.',
  },
  unknown: {
    status: 404,
    title: 'This console link is not valid',
    text: 'No link like it was issued here. Ask your bank’s admin tools (or your administrator) for a new one.',
  },
  used: {
    status: 410,
    title: 'This console link was already used',
    text:
      'A console link signs in once. If you signed in with it a moment ago, go back to that tab; otherwise ask for a ' +
      'new link: someone else may have opened this one.',
  },
  expired: {
    status: 410,
    title: 'This console link has expired',
    text: 'A console link can be opened for ten minutes after it was made. Ask for a new one and open it straight away.',
  },
};

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<meta name="referrer" content="no-referrer"><title>${title}</title><link rel="icon" href="data:,"><style>${PAGE_STYLE}</style></head>` +
  `<body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;

/** What a link that cannot be opened answers: a page that says why and what to do. */
export const refusalPage = (refusal: LinkRefusal): { status: number; html: string } => {
  const { status, title, text } = REFUSALS[refusal];
  return { status, html: page(title, text) };
};

/** What a signed-out staff member sees. */
export const signedOutPage = (): string =>
  page('You are signed out of the console', 'To come back, open a new console link from your bank’s admin tools.');

export const notBuiltPage = (): string =>
  page('The console is not built on this instance', 'Run `pnpm build` (pnpm start does it for you), then reload.');
