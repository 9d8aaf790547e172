// Reads the deliveries your endpoint received (deliveries.json: [{ raw, headers }]), verifies each with both the
// Standard Webhooks library and @credit/sdk/webhooks, and prints the event ids, once per event.
import { readFileSync } from 'node:fs';
import { verifyStandardWebhook } from './src/verify-standard-webhook.js';
import { handleCreditWebhook } from './src/webhook-handler.js';

const secret = process.env.WEBHOOK_SIGNING_SECRET;
const seen = new Set();
for (const { raw, headers } of JSON.parse(readFileSync('deliveries.json', 'utf8'))) {
  const { id } = verifyStandardWebhook(raw, headers, secret);
  handleCreditWebhook(raw, headers['x-service-signature'], secret);
  seen.add(id);
}
console.log(JSON.stringify([...seen]));
