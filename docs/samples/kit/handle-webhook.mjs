// Reads one delivery as your endpoint received it (the raw body in delivery.json, the X-Service-Signature header in
// SIGNATURE) and prints what the webhook sample made of it, after checking the signature with your signing secret.
import { readFileSync } from 'node:fs';
import { handleCreditWebhook } from './src/webhook-handler.js';

console.log(
  handleCreditWebhook(readFileSync('delivery.json', 'utf8'), process.env.SIGNATURE, process.env.WEBHOOK_SIGNING_SECRET),
);
