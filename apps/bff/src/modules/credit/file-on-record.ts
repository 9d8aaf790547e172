import type { CreditFile } from '../../bureau/provider.ts';
import type { AppContext } from '../../context.ts';

/** The file of the user's last committed pull: what every read shows, as of the day it was pulled. */
export interface FileOnRecord {
  file: CreditFile;
  /** The time the file is as of (the pull's time; a test clock's time for a user on a clock). */
  asOf: Date;
}

const fileContext = (userId: string) => `credit_files:${userId}`;

/** Seals a pulled file for `credit_snapshots.file_enc`; bound to its user, like other personal data. */
export const sealCreditFile = (ctx: Pick<AppContext, 'cipher'>, userId: string, file: CreditFile): string =>
  ctx.cipher.encrypt(JSON.stringify(file), fileContext(userId));

export const openCreditFile = (ctx: Pick<AppContext, 'cipher'>, userId: string, sealed: string): CreditFile =>
  JSON.parse(ctx.cipher.decrypt(sealed, fileContext(userId))) as CreditFile;
