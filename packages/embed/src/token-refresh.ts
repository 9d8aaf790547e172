/**
 * Asks the partner for a fresh user token. Several `token_request`s while one is pending share it,
 * so a burst of 401s inside the frame costs the partner's server one mint.
 */
export const tokenRefresher = (onTokenExpired: (() => Promise<string> | string) | undefined) => {
  let pending: Promise<string | null> | null = null;
  const fetchOnce = async (): Promise<string | null> => {
    if (!onTokenExpired) return null;
    try {
      const token = await onTokenExpired();
      if (typeof token === 'string' && token.startsWith('ut_')) return token;
      console.error('CreditWidget: onTokenExpired must return a user token starting with "ut_"');
    } catch (error) {
      console.error('CreditWidget: onTokenExpired failed', error);
    }
    return null;
  };
  return (): Promise<string | null> => {
    pending ??= fetchOnce().finally(() => {
      pending = null;
    });
    return pending;
  };
};

/** The declarative form's refresh: `POST data-token-url` on the partner's own origin, answering `{ userToken }`. */
export const fetchTokenFrom = (tokenUrl: string) => async (): Promise<string> => {
  const response = await fetch(tokenUrl, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${tokenUrl} answered ${response.status}`);
  const body = (await response.json()) as { userToken?: unknown };
  if (typeof body?.userToken !== 'string') throw new Error(`${tokenUrl} answered without a userToken`);
  return body.userToken;
};
