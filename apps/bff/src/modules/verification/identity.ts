import type { CreditSubject } from '../../bureau/provider.ts';
import type { AppContext } from '../../context.ts';

const clean = (text: string) => text.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * Who a credit file belongs to, as the bureau matches it: name, date of birth, ssn and zip code,
 * normalised so cosmetic differences do not make two people of one. Never stored or logged as is;
 * only keyed digests of it are.
 */
const fingerprint = (s: CreditSubject): string =>
  [clean(s.firstName), clean(s.lastName), s.dateOfBirth.trim(), s.ssnLast4.trim(), s.address.zipCode.trim().slice(0, 5)].join(
    '|',
  );

/**
 * Seeds which questions and choices a person gets. Per identity, not per user: the same person
 * enrolled under several ids (or by several clients) must see the same choices, or comparing the
 * sets would reveal the answers. Keyed with the instance's token-signing key, so it cannot be
 * computed by whoever knows the identity.
 */
export const contentSeed = (ctx: AppContext, subject: CreditSubject): string =>
  ctx.tokens.hash(`verification.content:${fingerprint(subject)}`);

/** The identity digests failures are counted under, newest key first (older keys while they rotate out). */
export const identityHashes = (ctx: AppContext, subject: CreditSubject): string[] =>
  ctx.tokens.candidates(`verification.identity:${fingerprint(subject)}`);
