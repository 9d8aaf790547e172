import type { WidgetEvent } from '@credit/contract/widget-protocol';

/** What the partner's front end supplies: a fresh `ut_…` token from its own server, per call. */
export type FetchUserToken = () => Promise<string> | string;

export type WidgetErrorEvent = Extract<WidgetEvent, { name: 'error' }>;

/** Calls the partner's `fetchUserToken` and insists on a user token, so a wrong value fails here, in words. */
export const fetchCheckedToken = async (fetchUserToken: FetchUserToken): Promise<string> => {
  const token = await fetchUserToken();
  if (typeof token !== 'string' || !token.startsWith('ut_')) {
    throw new Error('fetchUserToken must return a user token starting with "ut_" (mint one on your server)');
  }
  return token;
};

export const errorEvent = (code: WidgetErrorEvent['data']['code'], error: unknown): WidgetErrorEvent => ({
  name: 'error',
  data: { code, message: error instanceof Error ? error.message : String(error) },
});
