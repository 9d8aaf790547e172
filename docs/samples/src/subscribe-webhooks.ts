import type { CreditClient } from '@credit/sdk';

/**
 * Subscribes your HTTPS endpoint to the events you act on. You choose the signing secret (keep it with your other
 * secrets); every delivery is signed with it, and `handleCreditWebhook` checks that signature.
 */
export async function subscribeToWebhooks(credit: CreditClient, endpointUrl: string, signingSecret: string): Promise<string> {
  const webhook = await credit.call('createWebhook', {
    body: { url: endpointUrl, events: ['score.changed', 'alert.created'], secret: signingSecret },
  });
  return webhook.webhookId;
}
