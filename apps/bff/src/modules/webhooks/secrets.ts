import type { AppContext } from '../../context.ts';
import type { WebhookRow } from './repo.ts';

/** After a rotation the old secret keeps signing (as a second `v1`) for this long. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

// Bound to the row and the column, so a sealed secret copied to another subscription fails to open.
const currentContext = (webhookId: string) => `webhooks.secret:${webhookId}`;
const previousContext = (webhookId: string) => `webhooks.previous_secret:${webhookId}`;

export const sealSecret = (ctx: AppContext, webhookId: string, secret: string) =>
  ctx.cipher.encrypt(secret, currentContext(webhookId));

export const sealPreviousSecret = (ctx: AppContext, webhookId: string, secret: string) =>
  ctx.cipher.encrypt(secret, previousContext(webhookId));

export const openCurrentSecret = (ctx: AppContext, row: WebhookRow) => ctx.cipher.decrypt(row.secret_enc, currentContext(row.id));

/** The secrets that sign a delivery made at `now`: the current one, then the previous one inside its grace period. */
export const signingSecrets = (ctx: AppContext, row: WebhookRow, now: Date): string[] => {
  const secrets = [openCurrentSecret(ctx, row)];
  const expires = row.previous_secret_expires_at ? new Date(row.previous_secret_expires_at).getTime() : 0;
  if (row.previous_secret_enc && now.getTime() < expires) {
    secrets.push(ctx.cipher.decrypt(row.previous_secret_enc, previousContext(row.id)));
  }
  return secrets;
};
