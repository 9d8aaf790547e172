import type { TEventType } from '@credit/contract';

/** Realistic `data` for test deliveries, one per event type, shaped as the contract's event schemas. */
export const sampleEventData = (type: TEventType, at: Date, ids: { id(prefix: string): string }): Record<string, unknown> => {
  const who = { userId: 'usr_TestUser000000001', externalUserId: 'test-user-1' };
  // An alert e-mail's events name the customer and the alerts, never the address or what the alerts say.
  const alertEmail = {
    ...who,
    emailId: 'eml_TestEmail00000001',
    mode: 'each',
    alertIds: ['alt_TestAlert00000001'],
    alertCount: 1,
  };
  const offer = { ...who, offerId: 'off_TestOffer00000001', offerType: 'credit_card', provider: 'Test Bank', offerVersion: 1 };
  switch (type) {
    case 'user.enrolled':
      return { ...who, email: 'test.user@example.com', status: 'pending_verification' };
    case 'user.verified':
      return { ...who, verifiedAt: at.toISOString() };
    case 'user.deleted':
      return { ...who, deletedAt: at.toISOString() };
    case 'score.updated':
      return { ...who, score: 742, previousScore: 728, change: 14, scoreDate: at.toISOString().slice(0, 10) };
    case 'score.changed':
      return { ...who, score: 742, previousScore: 728, change: 14, direction: 'up', scoreDate: at.toISOString().slice(0, 10) };
    case 'alert.created':
      return {
        ...who,
        alert: {
          alertId: 'alt_TestAlert00000001',
          type: 'new_inquiry',
          title: 'New credit inquiry',
          message: 'A lender checked your credit report.',
          severity: 'warning',
        },
      };
    case 'alert.email.sent':
      return { ...alertEmail, attempts: 1, sentAt: at.toISOString() };
    case 'alert.email.suppressed':
      return { ...alertEmail, reason: 'unsubscribed' };
    case 'alert.email.failed':
      return { ...alertEmail, attempts: 6, lastError: 'ECONNECTION' };
    case 'offer.clicked':
      return { ...offer, clickId: ids.id('clk') };
    case 'offer.converted':
      return { ...offer, clickId: ids.id('clk'), stage: 'funded', amount: 12000, convertedAt: at.toISOString() };
    case 'sandbox.clock.ready':
      return { clockId: ids.id('clk'), frozenTime: at.toISOString(), pausedUsers: [] };
    case 'consent.withdrawn':
      return { ...who, consentId: 'cns_TestConsent0000001', withdrawnAt: at.toISOString() };
  }
};
