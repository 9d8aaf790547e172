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
 * Wrong lenders for accounts of `kind`, only lenders of that kind: a mortgage lender offered as a
 * card issuer would be ruled out at a glance. Never a lender the file has any account with, so a
 * decoy cannot be right by accident; lenders that only made an inquiry come last, as they would
 * make a careful person hesitate.
 */
const decoyLenders = (file: CreditFile, kind: TradelineKind, rng: SeededRandom): string[] => {
  const held = new Set(file.tradelines.map((t) => normalise(t.lender)));
  const inquired = new Set(file.inquiries.map((i) => normalise(i.source)));
  const free = rng.shuffle(DECOY_LENDERS[kind]).filter((name) => !held.has(normalise(name)));
  const ranked = [...free.filter((n) => !inquired.has(normalise(n))), ...free.filter((n) => inquired.has(normalise(n)))];
  return [...new Map(ranked.map((name) => [normalise(name), name])).values()];
};

/**
 * “Which of these lenders have you had an auto loan with?” About a kind of account the file holds:
 * one of its lenders of that kind among three decoys, or four decoys (“None of the above” is
 * right). Never about a kind the file lacks: then other questions naming a kind (“your auto
 * loan”) would make it likelier that a lender question about that kind has a lender as answer.
 * Only kinds with enough same-kind decoys are asked; when no kind has enough for either case,
 * there is no lender question and another kind of question takes its place.
 */
export const lenderQuestion = (file: CreditFile, rng: SeededRandom): DraftQuestion | null => {
  const held = KINDS.filter((kind) => file.tradelines.some((t) => t.kind === kind)).map((kind) => ({
    kind,
    decoys: decoyLenders(file, kind, rng),
  }));
  const askable = (noneRight: boolean) =>
    held.filter(({ decoys }) => decoys.length >= (noneRight ? CHOICES_PER_QUESTION : CHOICES_PER_QUESTION - 1));
  // When the drawn case cannot be built for any kind (too few decoys), the other case is asked.
  const drawn = wantsNoneRight(rng);
  const noneRight = askable(drawn).length > 0 ? drawn : !drawn;
  const decoysNeeded = noneRight ? CHOICES_PER_QUESTION : CHOICES_PER_QUESTION - 1;
  if (askable(noneRight).length === 0) return null;
  const { kind, decoys } = rng.pick(askable(noneRight));
  const text = `Which of these lenders have you had ${WITH_ARTICLE[kind]} with?`;
  if (noneRight) return draft({ kind: 'lender', text, choices: decoys.slice(0, decoysNeeded), answer: null, ordered: false });
  const answer = rng.pick([...new Set(file.tradelines.filter((t) => t.kind === kind).map((t) => t.lender))]);
  return draft({ kind: 'lender', text, choices: [answer, ...decoys.slice(0, decoysNeeded)], answer, ordered: false });
};
