import type { WidgetErrorCode } from '@credit/contract/widget-protocol';

/**
 * A failure the frame decides itself rather than one the API answered (those are the SDK's `CreditError`s):
 * a refused launch, a session the host could not renew, a verification that locked on a failed answer.
 */
export class WidgetError extends Error {
  override name = 'WidgetError';

  constructor(
    readonly code: WidgetErrorCode,
    message: string,
    readonly extra: { requestId?: string; unlocksAt?: string } = {},
  ) {
    super(message);
  }
}
