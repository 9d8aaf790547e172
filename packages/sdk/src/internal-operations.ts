/**
 * Operations the API serves for its own parts, not for partners: the OAuth token exchange (the server client sends it
 * itself from `clientId` and `clientSecret`) and the widget frame's cookie session. They are left out of the SDK's
 * public operation list (`OperationId`, `call`, `request`), so a partner's editor never offers them; the widget reaches
 * its two through `@credit/sdk/widget-session`, an entry of the workspace that is not published.
 */
export const INTERNAL_OPERATION_IDS = ['createAccessToken', 'createWidgetSession', 'getWidgetSession'] as const;

export type InternalOperationId = (typeof INTERNAL_OPERATION_IDS)[number];

/** Why each is left out, in the words of the partner guide's operations table (docs/partner/operations.md). */
export const INTERNAL_OPERATION_REASONS: Record<InternalOperationId, string> = {
  createAccessToken: 'the client exchanges its `clientId` and `clientSecret` for tokens itself',
  createWidgetSession: 'the widget frame’s own cookie session, opened from the user token you give the widget',
  getWidgetSession: 'the widget frame’s own cookie session, opened from the user token you give the widget',
};
