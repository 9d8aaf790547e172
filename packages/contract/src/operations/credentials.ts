import { defineOperation } from '../operation.ts';
import { ZClientCredentials, ZClientSecretRotation, ZRotateClientSecretInput } from '../resources/credentials.ts';

export const getClientCredentials = defineOperation({
  operationId: 'getClientCredentials',
  method: 'get',
  path: '/v1/client/credentials',
  tag: 'Credentials',
  summary: 'The state of your client secret',
  description:
    'Your client id, when the current secret was created, and whether the previous one (after a rotation with an ' +
    'overlap) still mints tokens and until when. Never a secret.',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'userOps',
  request: {},
  success: { status: 200, description: 'The credentials’ state.', data: ZClientCredentials },
  errors: [],
});

export const rotateClientSecret = defineOperation({
  operationId: 'rotateClientSecret',
  method: 'post',
  path: '/v1/client/secret/rotate',
  tag: 'Credentials',
  summary: 'Rotate your client secret, with an overlap',
  description:
    'A new client secret, answered once. As with Stripe’s rolled API keys, the current secret keeps working beside it ' +
    'for `overlapSeconds` (a day by default, at most 7 days), so you deploy the new one before the old stops: both ' +
    'mint tokens until `previousSecretExpiresAt`, a token minted with the previous one ends by then at the latest, ' +
    'and tokens and console sessions already open keep working. With `overlapSeconds: 0` the previous secret stops ' +
    'now and every token and console session of yours ends with it (but the console session that asked). A ' +
    'rotation during an overlap drops the oldest secret at once. Every rotation is on your audit trail ' +
    '(`client.secret_rotated`), never the secret.',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'auth',
  idempotent: true,
  request: { body: ZRotateClientSecretInput },
  success: {
    status: 200,
    description: 'The new secret (shown this once) and the previous one’s end.',
    data: ZClientSecretRotation,
  },
  errors: [],
});
