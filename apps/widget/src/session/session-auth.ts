import type { CreditAuth } from '@credit/sdk/browser';
import type { SessionRefresher } from './refresh.ts';
import { authHeaders, type WidgetSession } from './session.ts';

/**
 * The widget's credentials for `@credit/sdk`: the cookie session's CSRF header, or the user token as a
 * bearer token when the browser refused the cookie. A 401 renews the session through the host once (the
 * SDK then repeats the call); the page never reloads.
 */
export const widgetSessionAuth = (session: WidgetSession, refresher: SessionRefresher): CreditAuth => ({
  headers: async () => authHeaders(session.current()),
  async renew(sent) {
    // A call that left before another call's refresh finished fails late: the newer session already
    // answers for it, and asking the host again would mint a second token and a second session.
    const current = authHeaders(session.current());
    const newer = Object.keys(current).length > 0 && JSON.stringify(current) !== JSON.stringify(sent);
    if (!newer) await refresher.refresh();
    return true;
  },
});
