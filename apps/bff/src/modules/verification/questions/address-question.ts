import type { CreditFile } from '../../../bureau/provider.ts';
import type { SeededRandom } from '../../../lib/seeded-random.ts';
import { DECOY_CITIES, DECOY_STREET_NAMES, DECOY_STREET_SUFFIXES } from './decoy-pool.ts';
import { CHOICES_PER_QUESTION, type DraftQuestion, draft, normalise, wantsNoneRight } from './draft.ts';

interface Place {
  street: string;
  city: string;
  state: string;
}

const label = (p: Place) => `${p.street.trim()}, ${p.city.trim()}, ${p.state.trim()}`;

/** “118 Maple St” → “maple”: a decoy on any Maple street could make someone who lived on one hesitate. */
const streetName = (street: string) =>
  normalise(street)
    .replace(/^\d+[a-z]?\s+/, '')
    .split(' ')[0] ?? '';

/**
 * `count` made-up addresses in the style of the file's. None is on a street (of any city) the file
 * lists, so none can be right by accident. Only the file shapes them, never the enrolment address:
 * an enroller who could change the decoys by changing the address they enter could tell the
 * choices that change (decoys) from the one that stays (the answer).
 */
const decoyAddresses = (past: Place[], count: number, rng: SeededRandom): string[] | null => {
  const usedStreets = new Set(past.map((p) => streetName(p.street)));
  // Past cities join the pool so the right answer's city is not the odd one out.
  const cities = [...DECOY_CITIES, ...past.map(({ city, state }) => ({ city, state }))];
  const decoys = new Map<string, string>();
  for (let attempt = 0; decoys.size < count && attempt < 200; attempt++) {
    const name = rng.pick(DECOY_STREET_NAMES);
    if (usedStreets.has(normalise(name))) continue;
    const place = rng.pick(cities);
    const text = label({ street: `${rng.int(10, 9899)} ${name} ${rng.pick(DECOY_STREET_SUFFIXES)}`, ...place });
    usedStreets.add(normalise(name));
    decoys.set(normalise(text), text);
  }
  return decoys.size === count ? [...decoys.values()] : null;
};

/**
 * “Which of these addresses have you lived at?” One past address from the file among three
 * decoys, or four decoys when “None of the above” is right (always so when the file lists no
 * past address).
 */
export const addressQuestion = (file: CreditFile, rng: SeededRandom): DraftQuestion | null => {
  const past = file.pastAddresses;
  const noneRight = past.length === 0 || wantsNoneRight(rng);
  const text = 'Which of these addresses have you lived at?';
  if (noneRight) {
    const decoys = decoyAddresses(past, CHOICES_PER_QUESTION, rng);
    return decoys && draft({ kind: 'past_address', text, choices: decoys, answer: null, ordered: false });
  }
  const answer = label(rng.pick(past));
  const decoys = decoyAddresses(past, CHOICES_PER_QUESTION - 1, rng);
  return decoys && draft({ kind: 'past_address', text, choices: [answer, ...decoys], answer, ordered: false });
};
