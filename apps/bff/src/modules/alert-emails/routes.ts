import { type Request, type Response, Router } from 'express';
import type { AppContext } from '../../context.ts';
import type { ModuleRoutes } from '../../http/route.ts';
import { findUnsubscribeLink, UNSUBSCRIBE_PATH, type UnsubscribeLink, unsubscribe } from './service.ts';
import {
  renderUnsubscribed,
  renderUnsubscribeProblem,
  renderUnsubscribeQuestion,
  UNSUBSCRIBE_CSP,
  type UnsubscribeProblem,
} from './unsubscribe-page.ts';

const sendPage = (res: Response, status: number, html: string) => {
  res.status(status);
  res.setHeader('Content-Security-Policy', UNSUBSCRIBE_CSP);
  res.type('html').send(html);
};

const PROBLEM_STATUS: Record<UnsubscribeProblem, number> = { malformed: 400, unknown: 404, form: 400 };

const sendProblem = (res: Response, problem: UnsubscribeProblem) =>
  sendPage(res, PROBLEM_STATUS[problem], renderUnsubscribeProblem(problem));

/** `?lang=` picks the page's language (its link to the other one); otherwise the customer's own. */
const pageLocale = (req: Request, link: Extract<UnsubscribeLink, { kind: 'valid' }>): 'en' | 'es' =>
  req.query.lang === 'en' || req.query.lang === 'es' ? req.query.lang : link.locale;

const otherLanguage = (req: Request, locale: 'en' | 'es') => ({
  href: `?t=${encodeURIComponent(String(req.query.t))}&lang=${locale === 'en' ? 'es' : 'en'}`,
});

/**
 * A one-click form as RFC 8058 has mail clients send it: `List-Unsubscribe=One-Click`, urlencoded (parsed by the app's
 * body step) or multipart (which no parser here reads: the token in the address is what authorises it).
 */
const isOneClick = (req: Request) =>
  Boolean(req.is('multipart/form-data')) ||
  (req.body as Record<string, unknown> | undefined)?.['List-Unsubscribe'] === 'One-Click';

/**
 * The unsubscribe link of every alert e-mail, `GET|POST /email/unsubscribe?t=<token>`: a page for people, outside the
 * partner contract, without authentication (the token stands for the customer), counted per address like every page.
 * GET only asks; POST unsubscribes. A bad token is a 4xx page in both languages.
 */
export const alertEmailRoutes = (ctx: AppContext): ModuleRoutes => {
  const router = Router();
  router.get(UNSUBSCRIBE_PATH, async (req: Request, res: Response) => {
    const link = await findUnsubscribeLink(ctx, req.query.t);
    if (link.kind !== 'valid') return sendProblem(res, link.kind);
    const locale = pageLocale(req, link);
    const page = link.alreadyUnsubscribed ? renderUnsubscribed : renderUnsubscribeQuestion;
    sendPage(res, 200, page(locale, link, otherLanguage(req, locale)));
  });
  router.post(UNSUBSCRIBE_PATH, async (req: Request, res: Response) => {
    if (!isOneClick(req)) {
      const link = await findUnsubscribeLink(ctx, req.query.t);
      return sendProblem(res, link.kind === 'valid' ? 'form' : link.kind);
    }
    const link = await unsubscribe(ctx, req.query.t);
    if (link.kind !== 'valid') return sendProblem(res, link.kind);
    const locale = pageLocale(req, link);
    sendPage(res, 200, renderUnsubscribed(locale, link, otherLanguage(req, locale)));
  });
  return { operations: [], pages: router };
};
