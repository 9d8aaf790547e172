/**
 * How requests to bearer routes are authenticated. The client's own credentials use `ClientCredentialsAuth`;
 * a browser or app holding a user token uses `bearerAuth`, and a host with its own session scheme (the
 * widget's cookie + CSRF header) implements this interface.
 */
export interface CreditAuth {
  /** The headers that authenticate the next request. */
  headers(signal?: AbortSignal): Promise<Record<string, string>>;
  /**
   * Called once per call when the API answered `401 AUTHENTICATION_ERROR` to a request sent with `sent`:
   * forget those credentials and say whether a retry with fresh ones is worth making.
   */
  renew(sent: Record<string, string>): Promise<boolean> | boolean;
}

/**
 * A bearer token you obtain yourself (a `ut_…` user token from your server, say). `getToken` is asked again
 * with `renew: true` after the API refused the previous token, so it can fetch a new one.
 */
export const bearerAuth = (getToken: (context: { renew: boolean }) => string | Promise<string>): CreditAuth => {
  let renewNext = false;
  return {
    async headers() {
      const renew = renewNext;
      renewNext = false;
      return { authorization: `Bearer ${await getToken({ renew })}` };
    },
    renew() {
      renewNext = true;
      return true;
    },
  };
};
