import { ApiError } from '../../core/api-error.ts';

/**
 * The consent columns of a user row. `consent_valid_until` is the gate (migration 008); `consent_ended` says why it is
 * closed when it is null (the latest record, by order of recording, was withdrawn, or there is none / it was superseded
 * by new terms).
 * Optional: a query that did not select them leaves them undefined, and the gate then reads them itself.
 */
export interface ConsentColumns {
  consent_valid_until?: Date | null;
  consent_ended?: 'withdrawn' | 'required' | null;
}

export type ConsentPause = 'consent_required' | 'consent_withdrawn' | 'consent_expired';

/** Null when the user has current consent at `now`, else why not. */
export const consentPause = (row: ConsentColumns, now: Date): ConsentPause | null => {
  const until = row.consent_valid_until;
  if (until) return new Date(until).getTime() > now.getTime() ? null : 'consent_expired';
  return row.consent_ended === 'withdrawn' ? 'consent_withdrawn' : 'consent_required';
};

const WHY: Record<ConsentPause, string> = {
  consent_required: 'has not given consent under the current terms',
  consent_withdrawn: 'withdrew their consent',
  consent_expired: 'gave consent that has expired',
};

/**
 * The gate every bureau pull passes: 403 CONSENT_REQUIRED unless the user has current consent at `now` (the injected
 * clock; a test clock's time in its scope).
 */
export const assertCurrentConsent = (row: ConsentColumns, now: Date): void => {
  const pause = consentPause(row, now);
  if (!pause) return;
  throw new ApiError(
    'CONSENT_REQUIRED',
    `No credit file is pulled without the consumer’s consent: this user ${WHY[pause]}. ` +
      'The widget asks for it; or record the consent they gave you with POST /v1/users/{userId}/consent.',
  );
};
