import { describe, expect, it } from 'vitest';
import type { CreditFile, CreditSubject, TradelineKind } from '../src/bureau/provider.ts';
import { LENDERS } from '../src/bureau/sandbox/directory.ts';
import { generateCreditFile } from '../src/bureau/sandbox/generate-file.ts';
import { ApiError } from '../src/core/api-error.ts';
import { buildQuestionSet, type PublicQuestion } from '../src/modules/verification/questions/build-question-set.ts';

// The question builder over hundreds of synthetic files: every question must have exactly one right
// option, judged here from the file itself, and that must be the one the answer key names.

const AS_OF = new Date('2026-01-15T10:00:00Z');
const FIRST_NAMES = ['Jane', 'Omar', 'Li', 'Maria', 'Tom', 'Aisha', 'Ken', 'Zoe'];
const CITIES = [
  { city: 'Springfield', state: 'IL', zipCode: '62701' },
  { city: 'Columbus', state: 'OH', zipCode: '43215' },
  { city: 'Austin', state: 'TX', zipCode: '78701' },
];

const subjectNo = (i: number): CreditSubject => ({
  userId: `usr_subject${i}`,
  firstName: FIRST_NAMES[i % FIRST_NAMES.length] as string,
  lastName: `Tester${i}`,
  ssnLast4: String(1000 + i).slice(-4),
  dateOfBirth: `${1945 + (i % 60)}-0${1 + (i % 9)}-1${i % 10}`,
  address: { street: `${100 + i} Main St`, ...(CITIES[i % CITIES.length] as (typeof CITIES)[number]) },
});

const KIND_WORDS: Record<string, TradelineKind> = {
  'credit card': 'credit_card',
  'auto loan': 'auto_loan',
  'student loan': 'student_loan',
  mortgage: 'mortgage',
  'personal loan': 'personal_loan',
};

const dollars = (text: string) => Number(text.replace(/[$,]/g, ''));
const norm = (text: string) => text.trim().toLowerCase();

/** Whether an option (other than “None of the above”) is true of this person, judged from the file. */
const isTrue = (q: PublicQuestion, option: string, file: CreditFile, subject: CreditSubject): boolean => {
  if (q.text === 'Which of these addresses have you lived at?') {
    const street = norm(option.split(',')[0] as string);
    return [subject.address, ...file.pastAddresses].some((a) => norm(a.street) === street);
  }
  const opened = /^In which year did you open your (first )?(.+)\?$/.exec(q.text);
  if (opened) {
    const accounts = file.tradelines.filter((t) => t.kind === KIND_WORDS[opened[2] as string]);
    expect(accounts.length > 1).toBe(Boolean(opened[1]));
    return option === accounts.map((t) => t.openedOn.slice(0, 4)).sort()[0];
  }
  const card = /^What (?:was|is) the credit limit of your (first|most recently opened) credit card\?$/.exec(q.text);
  if (card) {
    const cards = file.tradelines.filter((t) => t.kind === 'credit_card').sort((a, b) => a.openedOn.localeCompare(b.openedOn));
    const named = (card[1] === 'first' ? cards[0] : cards.at(-1)) as { limitOrAmount: number; openedOn: string };
    expect(cards.filter((c) => c.openedOn === named.openedOn)).toHaveLength(1);
    const [low, high] = option.split(' – ').map(dollars) as [number, number];
    return named.limitOrAmount >= low && named.limitOrAmount <= high;
  }
  const lender = /^Which of these lenders have you had an? (.+) with\?$/.exec(q.text);
  if (lender) {
    const kind = KIND_WORDS[lender[1] as string];
    return file.tradelines.some((t) => t.kind === kind && norm(t.lender) === norm(option));
  }
  const amount = /^What was the original amount of your (.+)\?$/.exec(q.text);
  if (amount) {
    const loans = file.tradelines.filter((t) => t.kind === KIND_WORDS[amount[1] as string]);
    expect(loans).toHaveLength(1);
    const value = Math.round((loans[0] as { limitOrAmount: number }).limitOrAmount);
    const [low, high] = option.split(' – ').map(dollars) as [number, number];
    return value >= low && value <= high;
  }
  throw new Error(`unexpected question: ${q.text}`);
};

describe('verification question builder', () => {
  const runs = Array.from({ length: 300 }, (_, i) => {
    const subject = subjectNo(i);
    const file = generateCreditFile(subject, AS_OF);
    const set = buildQuestionSet({ file, subject, contentSeed: `content-${i}`, sessionSeed: `session-${i}`, asOf: AS_OF });
    return { subject, file, set };
  });

  it('gives every question exactly one right option, the one in the answer key', () => {
    for (const { subject, file, set } of runs) {
      expect(set.questions).toHaveLength(3);
      for (const q of set.questions) {
        expect(q.options).toHaveLength(5);
        expect(q.options[4]?.text).toBe('None of the above');
        const trueOnes = q.options.slice(0, 4).filter((o) => isTrue(q, o.text, file, subject));
        expect(trueOnes.length, `${q.text} ${JSON.stringify(q.options)}`).toBeLessThanOrEqual(1);
        const right = trueOnes[0] ?? q.options[4];
        expect(set.answerKey[q.questionId], q.text).toBe(right?.id);
      }
    }
  });

  it('makes “None of the above” right now and then, and spreads the right answer over the positions', () => {
    const positions: number[] = [0, 0, 0, 0, 0];
    const kinds = new Map<string, number>();
    for (const { set } of runs) {
      for (const q of set.questions) {
        const at = q.options.findIndex((o) => o.id === set.answerKey[q.questionId]);
        positions[at] = (positions[at] ?? 0) + 1;
        const kind = q.text.split(' ').slice(0, 4).join(' ');
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
    }
    const total = runs.length * 3;
    const noneRight = (positions[4] ?? 0) / total;
    expect(noneRight).toBeGreaterThan(0.1);
    expect(noneRight).toBeLessThan(0.35);
    for (const count of positions.slice(0, 4)) expect(count / total).toBeGreaterThan(0.1);
    expect([...kinds.keys()].sort()).toEqual([
      'In which year did',
      'What is the credit',
      'What was the credit',
      'What was the original',
      'Which of these addresses',
      'Which of these lenders',
    ]);
  });

  it('is reproducible: same seeds, same session; a new session only reorders and renames', () => {
    const { subject, file } = runs[0] as (typeof runs)[number];
    const build = (sessionSeed: string) =>
      buildQuestionSet({ file, subject, contentSeed: 'content-0', sessionSeed, asOf: AS_OF });
    expect(build('session-0')).toEqual(build('session-0'));
    const a = build('session-a');
    const b = build('session-b');
    const content = (s: typeof a) => s.questions.map((q) => `${q.text}|${q.options.map((o) => o.text).sort()}`).sort();
    expect(content(a)).toEqual(content(b));
    expect(a.questions.flatMap((q) => q.options.map((o) => o.id))).not.toEqual(
      b.questions.flatMap((q) => q.options.map((o) => o.id)),
    );
  });

  it('offers only lenders of the kind it asks about', () => {
    let asked = 0;
    for (const { set } of runs) {
      for (const q of set.questions) {
        const lender = /^Which of these lenders have you had an? (.+) with\?$/.exec(q.text);
        if (!lender) continue;
        asked += 1;
        const ofKind = LENDERS[KIND_WORDS[lender[1] as string] as TradelineKind];
        for (const o of q.options.slice(0, 4)) expect(ofKind, q.text).toContain(o.text);
      }
    }
    expect(asked).toBeGreaterThan(30);
  });

  it('puts the right range or year at every position equally often and makes “None of the above” reachable', () => {
    const positions = [0, 0, 0, 0, 0];
    for (const { set } of runs) {
      for (const q of set.questions) {
        if (!/^(What|In which year)/.test(q.text)) continue;
        expect(q.options.some((o) => o.text.startsWith('Less than'))).toBe(false);
        const at = q.options.findIndex((o) => o.id === set.answerKey[q.questionId]);
        positions[at] = (positions[at] ?? 0) + 1;
      }
    }
    const total = positions.reduce((a, b) => a + b, 0);
    for (const count of positions.slice(0, 4)) expect(count / total).toBeGreaterThan(0.14);
    expect((positions[4] ?? 0) / total).toBeGreaterThan(0.1);
  });

  it('never asks the birth year, which the enroller supplies', () => {
    for (const { set } of runs) for (const q of set.questions) expect(q.text).not.toMatch(/born|birth/i);
  });

  it('refuses a file too thin for three questions with 503, not a crash', () => {
    const { subject, file } = runs[0] as (typeof runs)[number];
    const thin: CreditFile = { ...file, tradelines: [], pastAddresses: [] };
    const build = () => buildQuestionSet({ file: thin, subject, contentSeed: 'c', sessionSeed: 's', asOf: AS_OF });
    expect(build).toThrow(ApiError);
    try {
      build();
    } catch (error) {
      expect((error as ApiError).code).toBe('SERVICE_UNAVAILABLE');
    }
  });
});
