import type { CreditFile, Tradeline } from '../../bureau/provider.ts';
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
  ctx.cipher.encryptCompressed(JSON.stringify(file), fileContext(userId));

/** A file sealed before a field existed lacks it; the tradeline fields as they were then. */
type StoredTradeline = Omit<Tradeline, 'status' | 'monthlyPayment' | 'apr' | 'termMonths' | 'paymentHistory'> &
  Partial<Tradeline>;
type StoredFile = Omit<
  CreditFile,
  'tradelines' | 'collections' | 'publicRecords' | 'softInquiries' | 'names' | 'yearOfBirth' | 'employers'
> &
  Partial<Omit<CreditFile, 'tradelines'>> & { tradelines: StoredTradeline[] };

/**
 * Files stay on record until the next pull, so one sealed before the report's fields existed is still read: what it
 * lacks reads as "none reported" (a closed loan as paid off, which is how installment accounts close).
 */
const withReportFields = (stored: StoredFile): CreditFile => ({
  ...stored,
  tradelines: stored.tradelines.map((t) => ({
    ...t,
    status: t.status ?? (t.closedOn === null ? 'open' : t.kind === 'credit_card' ? 'closed' : 'paid_off'),
    monthlyPayment: t.monthlyPayment ?? null,
    apr: t.apr ?? null,
    termMonths: t.termMonths ?? null,
    paymentHistory: t.paymentHistory ?? [],
  })),
  collections: stored.collections ?? [],
  publicRecords: stored.publicRecords ?? [],
  softInquiries: stored.softInquiries ?? [],
  names: stored.names ?? [],
  yearOfBirth: stored.yearOfBirth ?? null,
  employers: stored.employers ?? [],
});

export const openCreditFile = (ctx: Pick<AppContext, 'cipher'>, userId: string, sealed: string): CreditFile =>
  withReportFields(JSON.parse(ctx.cipher.decrypt(sealed, fileContext(userId))) as StoredFile);
