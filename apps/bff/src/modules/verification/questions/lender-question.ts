import type { CreditFile, TradelineKind } from '../../../bureau/provider.ts';
import type { SeededRandom } from '../../../lib/seeded-random.ts';
import { DECOY_LENDERS } from './decoy-pool.ts';
import { CHOICES_PER_QUESTION, type DraftQuestion, draft, normalise, wantsNoneRight } from './draft.ts';

const KINDS = Object.keys(DECOY_LENDERS) as TradelineKind[];

const WITH_ARTICLE: Record<TradelineKind, string> = {
  credit_card: 'a credit card',
  auto_loan: 'an auto loan',
  student_loan: 'a student loan',
  mortgage: 'a mortgage',
  personal_loan: 'a personal loan',
};

/**
 * `count` wrong lenders for accounts of `kind`: lenders of that kind first (most plausible), then
 * others. Never a lender the file has any account with, so a decoy cannot be right by accident;
 * lenders that only made an inquiry are used last, as they would make a careful person hesitate.
 */
const decoyLenders = (file: CreditFile, kind: TradelineKind, count: number, rng: SeededRandom): string[] | null => {
  const held = new Set(file.tradelines.map((t) => normalise(t.lender)));
  const inquired = new Set(file.inquiries.map((i) => normalise(i.source)));
  const sameKind = rng.shuffle(DECOY_LENDERS[kind]);
  const otherKinds = rng.shuffle(KINDS.filter((k) => k !== kind).flatMap((k) => DECOY_LENDERS[k]));
  const ranked = [...sameKind, ...otherKinds].filter((name) => !held.has(normalise(name)));
  const preferred = [...ranked.filter((n) => !inquired.has(normalise(n))), ...ranked.filter((n) => inquired.has(normalise(n)))];
  const unique = [...new Map(preferred.map((name) => [normalise(name), name])).values()];
  return unique.length >= count ? unique.slice(0, count) : null;
};

/**
 * “Which of these lenders have you had an auto loan with?” Either about a kind of account the file
 * holds (one of its lenders among three decoys) or about a kind it does not hold (four decoys:
 * “None of the above” is right). `avoidKind` is the kind another question of the set already
 * names, which must not be asked here: “your auto loan” would tell that the answer is not
 * “None of the above”.
 */
export const lenderQuestion = (file: CreditFile, rng: SeededRandom, avoidKind?: TradelineKind): DraftQuestion | null => {
  const heldKinds = KINDS.filter((k) => k !== avoidKind && file.tradelines.some((t) => t.kind === k));
  const absentKinds = KINDS.filter((k) => k !== avoidKind && !file.tradelines.some((t) => t.kind === k));
  const noneRight = absentKinds.length > 0 && (heldKinds.length === 0 || wantsNoneRight(rng));
  const kind = rng.pick(noneRight ? absentKinds : heldKinds);
  const text = `Which of these lenders have you had ${WITH_ARTICLE[kind]} with?`;
  if (noneRight) {
    const decoys = decoyLenders(file, kind, CHOICES_PER_QUESTION, rng);
    return decoys && draft({ kind: 'lender', text, choices: decoys, answer: null, ordered: false });
  }
  const answer = rng.pick([...new Set(file.tradelines.filter((t) => t.kind === kind).map((t) => t.lender))]);
  const decoys = decoyLenders(file, kind, CHOICES_PER_QUESTION - 1, rng);
  return decoys && draft({ kind: 'lender', text, choices: [answer, ...decoys], answer, ordered: false });
};
