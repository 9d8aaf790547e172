import { describe, expect, it } from 'vitest';
import type { CreditFile, CreditSubject, TradelineKind } from '../src/bureau/provider.ts';
import { generateCreditFile } from '../src/bureau/sandbox/generate-file.ts';
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
  if (q.text === 'In which year were you born?') return option === subject.dateOfBirth.slice(0, 4);
  if (q.text === 'Which of these addresses have you lived at?') {
    const street = norm(option.split(',')[0] as string);
    return [subject.address, ...file.pastAddresses].some((a) => norm(a.street) === street);
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
    const below = /^Less than (\S+)$/.exec(option);
    if (below) return value < dollars(below[1] as string);
    const [low, high] = option.split(' – ').map(dollars) as [number, number];
    return value >= low && value <= high;
  }
  throw new Error(`unexpected question: ${q.text}`);
};

describe('verification question builder', () => {
  const runs = Array.from({ length: 300 }, (_, i) => {
    const subject = subjectNo(i);
    const file = generateCreditFile(subject, AS_OF);
    const set = buildQuestionSet({ file, subject, contentSeed: `content-${i}`, sessionSeed: `session-${i}` });
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
      'In which year were',
      'What was the original',
      'Which of these addresses',
      'Which of these lenders',
    ]);
  });

  it('is reproducible: same seeds, same session; a new session only reorders and renames', () => {
    const { subject, file } = runs[0] as (typeof runs)[number];
    const build = (sessionSeed: string) => buildQuestionSet({ file, subject, contentSeed: 'content-0', sessionSeed });
    expect(build('session-0')).toEqual(build('session-0'));
    const a = build('session-a');
    const b = build('session-b');
    const content = (s: typeof a) => s.questions.map((q) => `${q.text}|${q.options.map((o) => o.text).sort()}`).sort();
    expect(content(a)).toEqual(content(b));
    expect(a.questions.flatMap((q) => q.options.map((o) => o.id))).not.toEqual(
      b.questions.flatMap((q) => q.options.map((o) => o.id)),
    );
  });
});
