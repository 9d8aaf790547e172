import type { AppContext } from '../context.ts';
import type { TokenResolution } from '../core/auth-service.ts';
import type { HttpRequest } from './api-request.ts';
import { readWidgetSession } from './widget-session-cookie.ts';

/**
 * Resolves `Authorization: Bearer …`, or else the widget session cookie, into a principal, or records
 * why it was refused. It never rejects by itself: the request is counted next, and each route decides what it needs.
 */
export const resolvePrincipal = async (ctx: AppContext, req: HttpRequest): Promise<void> => {
  const header = req.get('authorization');
  let resolution: TokenResolution | undefined;
  if (header && /^bearer /i.test(header)) {
    resolution = await ctx.auth.resolveToken(header.slice(7).trim());
  } else if (!header) {
    const session = readWidgetSession(ctx, req);
    if (session && 'failure' in session) resolution = session;
    else if (session) {
      const resolved = await ctx.auth.resolveToken(session.token);
      resolution =
        'principal' in resolved && resolved.principal.kind === 'user'
          ? { token: resolved.token, principal: { ...resolved.principal, via: 'widget-session' } }
          : { failure: 'The widget session has ended; start a new one with a fresh user token.' };
    }
  }
  if (resolution && 'failure' in resolution) req.authFailure = resolution.failure;
  else if (resolution) {
    req.principal = resolution.principal;
    req.presentedToken = resolution.token;
  }
};
