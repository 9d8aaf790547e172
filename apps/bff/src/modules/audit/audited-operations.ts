import type { TAuditEventType } from '@credit/contract';

/**
 * The operations whose successful answer shows credit data or personal data, and what their entry is. Writes that
 * matter on their own (tokens, deletions, consent, secrets) are recorded where they happen, with their transaction.
 */
export const AUDITED_OPERATIONS: Readonly<Record<string, TAuditEventType>> = {
  // Credit data: scores, history, the report, what-ifs on the file, the file's questions, alerts about the file, offers
  // ranked by the file.
  getCreditScore: 'credit_data.read',
  listCreditScoreHistory: 'credit_data.read',
  getCreditReport: 'credit_data.read',
  // A simulation stores nothing, but its answer shows the score and factors of the file on record.
  simulateCreditScore: 'credit_data.read',
  refreshCreditScore: 'credit_data.read',
  listUserOffers: 'credit_data.read',
  // A count of customers whose files meet rules the caller chooses: narrow rules tell of one customer's file.
  previewOfferAudience: 'credit_data.read',
  listAlerts: 'credit_data.read',
  updateAlert: 'credit_data.read',
  getVerificationQuestions: 'credit_data.read',
  sandboxGetVerificationAnswers: 'credit_data.read',
  // Past events carry scores and alerts, and e-mail addresses (user.enrolled).
  listEvents: 'credit_data.read',
  getEvent: 'credit_data.read',
  // Personal data: the enrolled identity (name, e-mail, status) and the consent record (IP address, user agent).
  getUser: 'personal_data.read',
  listUsers: 'personal_data.read',
  getMe: 'personal_data.read',
  getConsent: 'personal_data.read',
  listConsentHistory: 'personal_data.read',
  // Granting and withdrawing answer the consent history too (with its IP addresses and user agents); the write
  // itself is recorded as consent.given / consent.withdrawn in its own transaction.
  grantConsent: 'personal_data.read',
  withdrawConsent: 'personal_data.read',
};
