import { randomBytes } from 'node:crypto';
import { GENERATED_SECRET_BYTES } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import type { WebhookRow } from './repo.ts';

/** After a rotation the old secret keeps signing (as a second `v1`) for this long. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

/** What signing reads of a subscription. */
export type SigningWebhook = Pick<WebhookRow, 'id' | 'secret_enc' | 'previous_secret_enc' | 'previous_secret_expires_at'>;

/**
 * A Standard Webhooks secret, `whsec_` + base64 of 32 bytes fresh from the CSPRNG (like client secrets, never from
 * the injected id generator, which tests may make predictable).
 */
export const generateSecret = (): string => `whsec_${randomBytes(GENERATED_SECRET_BYTES).toString('base64')}`;

// Bound to the row and the column, so a sealed secret copied to another subscription fails to open.
const currentContext = (webhookId: string) => `webhooks.secret:${webhookId}`;
const previousContext = (webhookId: string) => `webhooks.previous_secret:${webhookId}`;

export const sealSecret = (ctx: AppContext, webhookId: string, secret: string) =>
  ctx.cipher.encrypt(secret, currentContext(webhookId));

export const sealPreviousSecret = (ctx: AppContext, webhookId: string, secret: string) =>
  ctx.cipher.encrypt(secret, previousContext(webhookId));

export const openCurrentSecret = (ctx: AppContext, row: SigningWebhook) =>
  ctx.cipher.decrypt(row.secret_enc, currentContext(row.id));

/** The secrets that sign a delivery made at `now`: the current one, then the previous one inside its grace period. */
export const signingSecrets = (ctx: AppContext, row: SigningWebhook, now: Date): string[] => {
  const secrets = [openCurrentSecret(ctx, row)];
  const expires = row.previous_secret_expires_at ? new Date(row.previous_secret_expires_at).getTime() : 0;
  if (row.previous_secret_enc && now.getTime() < expires) {
    secrets.push(ctx.cipher.decrypt(row.previous_secret_enc, previousContext(row.id)));
  }
  return secrets;
};

/** The columns a rotation to `secret` at `now` changes: the current secret becomes the previous one, signing for 24 h. */
export const rotationChanges = (ctx: AppContext, current: SigningWebhook, secret: string, now: Date) => ({
  secretEnc: sealSecret(ctx, current.id, secret),
  previousSecretEnc: sealPreviousSecret(ctx, current.id, openCurrentSecret(ctx, current)),
  previousSecretExpiresAt: new Date(now.getTime() + ROTATION_GRACE_MS),
});
