// After an outage: `node recover.mjs <webhookId> <when the outage began>` re-activates the subscription and queues
// again what it missed, then prints what it did.
import { createCreditClient } from './src/credit-client.js';
import { recoverAfterOutage } from './src/recover-webhooks.js';

const [webhookId, since] = process.argv.slice(2);
console.log(JSON.stringify(await recoverAfterOutage(createCreditClient(process.env), webhookId, new Date(since))));
