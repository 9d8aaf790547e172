import type { CreditClient } from '@credit/sdk';

/**
 * After an outage of your receiver: re-activate the subscription (it turned `failed`), then queue again, once each,
 * every event it failed to deliver or was never sent since the outage began. Deliveries go out at once; drop
 * duplicates by event id (`webhook-id`).
 */
export async function recoverAfterOutage(credit: CreditClient, webhookId: string, outageBegan: Date) {
  const subscription = await credit.call('getWebhook', { params: { webhookId } });
  if (subscription.status !== 'active') {
    await credit.call('updateWebhook', { params: { webhookId }, body: { status: 'active' } });
  }
  const recovery = await credit.call('recoverWebhook', { params: { webhookId }, body: { since: outageBegan.toISOString() } });
  return { wasStatus: subscription.status, queued: recovery.queued };
}
