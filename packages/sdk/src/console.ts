/**
 * `@credit/sdk/console`: the client of the bank's console app (apps/console), which calls the partner operations
 * same-origin at `/console/api/…` with its session cookie and CSRF header (the server admits them by the session:
 * apps/bff/src/modules/console). An entry of the workspace only: neither built nor published, like widget-session.
 */
import { CONSOLE_API_PREFIX, CONSOLE_CSRF_HEADER, CONSOLE_OPERATIONS, type ConsoleOperationId } from '@credit/contract/console';
import type { CreditAuth } from './auth.ts';
import { BaseCreditClient, type CommonOptions } from './base-client.ts';
import { SERVER_ROUTES, USER_TOKEN_ROUTES } from './routes.generated.ts';

export type { ConsoleOperationId };

const ALL_ROUTES: Record<string, string> = { ...USER_TOKEN_ROUTES, ...SERVER_ROUTES };

/** The route lines of the operations the console may call, and of no other. */
const consoleRoutes = (): Record<ConsoleOperationId, string> =>
  Object.fromEntries(
    (Object.keys(CONSOLE_OPERATIONS) as ConsoleOperationId[]).map((id) => {
      const route = ALL_ROUTES[id];
      if (!route) throw new Error(`the console's operation ${id} is not in the SDK's route table`);
      return [id, route];
    }),
  ) as Record<ConsoleOperationId, string>;

/**
 * The session's credentials: the cookie travels by itself (same origin); every request echoes the CSRF token. A 401
 * means the session ended (signed out, or its eight hours passed): nothing to renew, the staff member needs a new link.
 */
export const consoleSessionAuth = (csrfToken: () => string): CreditAuth => ({
  headers: async () => ({ [CONSOLE_CSRF_HEADER]: csrfToken() }),
  renew: () => false,
});

export interface ConsoleClientOptions extends Omit<CommonOptions, 'baseUrl'> {
  /** The API's origin; '' (the default) for the console page the API serves. */
  origin?: string;
  csrfToken: () => string;
}

/** The console's operations, sent to `/console/api` with the session's CSRF header. */
export class ConsoleClient extends BaseCreditClient<ConsoleOperationId> {
  constructor({ origin = '', csrfToken, ...options }: ConsoleClientOptions) {
    super(consoleRoutes(), { ...options, baseUrl: `${origin}${CONSOLE_API_PREFIX}`, auth: consoleSessionAuth(csrfToken) });
  }
}
