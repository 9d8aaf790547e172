// A partner's first script, plain JavaScript for plain `node`: the quickstart's steps, one after the other, from the
// samples compiled by `tsc` (src/*.ts → src/*.js). Credentials and the webhook endpoint come from the environment.
import { activeCustomerIds } from './src/all-users.js';
import { createCreditClient } from './src/credit-client.js';
import { enrolCustomer } from './src/enrol-customer.js';
import { describeScore } from './src/read-score.js';
import { subscribeToWebhooks } from './src/subscribe-webhooks.js';
import { userTokenFor } from './src/user-token-route.js';
import { verifyInSandbox } from './src/verify-in-sandbox.js';

const customer = {
  id: 'cust-kit-1',
  email: 'jane@example.com',
  firstName: 'Jane',
  lastName: 'Doe',
  ssnLast4: '1234',
  dateOfBirth: '1985-04-12',
  address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
};

const credit = createCreditClient(process.env);
const userId = await enrolCustomer(credit, customer);
const verified = await verifyInSandbox(credit, userId);
const score = await describeScore(credit, userId);
const active = await activeCustomerIds(credit);
const { userToken } = await userTokenFor(credit, customer);
const webhookId = await subscribeToWebhooks(credit, process.env.WEBHOOK_URL, process.env.WEBHOOK_SIGNING_SECRET);
console.log(JSON.stringify({ userId, verified, score, active, userToken, webhookId }));
