import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUREAU_PATHS,
  toBureauRequest,
  ZBureauCreditFileAnswer,
  ZBureauIdentityFileAnswer,
} from '../src/bureau/http/contract.ts';
import { type RunningBureauServer, startBureauServer } from '../src/bureau/http/server.ts';
import type { CreditFile, CreditSubject } from '../src/bureau/provider.ts';
import { generateCreditFile } from '../src/bureau/sandbox/generate-file.ts';
import { SANDBOX_SSN, SandboxBureau } from '../src/bureau/sandbox/sandbox-bureau.ts';
import { type DetectedAlert, detectAlerts, HIGH_UTILIZATION_PERCENT } from '../src/modules/monitoring/file-diff.ts';
import { type FileSnapshot, snapshotOf } from '../src/modules/monitoring/file-snapshot.ts';

// The sandbox bureau's stories, run through the monitoring job's own comparison (snapshotOf + detectAlerts), pull
// after pull, the way the job pulls: every 30 days from whenever the user was verified.

const DAY_MS = 86_400_000;
const ALL_TYPES = [
  'new_inquiry',
  'new_account',
  'account_closed',
  'late_payment',
  'high_utilization',
  'address_change',
  'fraud_alert',
  'score_change',
].sort();

const person = (ssnLast4: string, n = 0): CreditSubject => ({
  userId: `usr_story${n}`,
  firstName: ['Jane', 'Omar', 'Li', 'Maria', 'Tom'][n % 5] as string,
  lastName: `Storyteller${n}`,
  ssnLast4,
  dateOfBirth: `${1950 + ((n * 7) % 50)}-0${1 + (n % 9)}-1${n % 10}`,
  address: { street: `${10 + n} Main St`, city: 'Springfield', state: 'IL', zipCode: '62701' },
});

interface Pull {
  asOf: Date;
  file: CreditFile;
  snapshot: FileSnapshot;
  alerts: DetectedAlert[];
  /** What the job's score rule would raise: the score moved more than 10 points since the previous pull. */
  scoreChange: boolean;
}

/** `count` pulls `everyDays` apart from `start`, compared each with the previous exactly as the job does. */
const pullsOf = (subject: CreditSubject, start: Date, count: number, everyDays = 30): Pull[] => {
  const pulls: Pull[] = [];
  for (let i = 0; i < count; i++) {
    const asOf = new Date(start.getTime() + i * everyDays * DAY_MS);
    const file = generateCreditFile(subject, asOf);
    const snapshot = snapshotOf(file, asOf);
    const previous = pulls.at(-1)?.snapshot ?? null;
    pulls.push({
      asOf,
      file,
      snapshot,
      alerts: detectAlerts(previous, snapshot, asOf, subject.userId),
      scoreChange: previous !== null && Math.abs(snapshot.score - previous.score) > 10,
    });
  }
  return pulls;
};

const typesRaised = (pulls: Pull[]) =>
  [
    ...new Set([
      ...pulls.flatMap((p) => p.alerts.map((a) => a.draft.type)),
      ...(pulls.some((p) => p.scoreChange) ? ['score_change'] : []),
    ]),
  ].sort();

/** Start days spread over two years, days of the month and hours, including month ends and a leap day. */
const STARTS = [
  '2025-01-01T00:00:00Z',
  '2025-03-17T09:30:00Z',
  '2025-06-30T23:59:00Z',
  '2025-10-05T12:00:00Z',
  '2026-01-31T06:00:00Z',
  '2026-05-14T18:00:00Z',
  '2026-11-25T10:00:00Z',
  '2027-08-09T03:00:00Z',
  '2028-02-29T12:00:00Z',
].map((iso) => new Date(iso));

describe('story 1001: every alert type within any twelve monthly refreshes', () => {
  it('raises all eight types over twelve 30-day pulls, whatever the start day and person', () => {
    for (const [n, start] of STARTS.entries()) {
      for (const who of [n, n + 20]) {
        const pulls = pullsOf(person(SANDBOX_SSN.everyAlertStory, who), start, 12);
        expect(typesRaised(pulls), `person ${who} from ${start.toISOString()}`).toEqual(ALL_TYPES);
      }
    }
  });

  it('also over twelve calendar-monthly pulls on the same day of each month', () => {
    for (const start of STARTS) {
      const subject = person(SANDBOX_SSN.everyAlertStory, 3);
      const pulls: Pull[] = [];
      for (let i = 0; i < 12; i++) {
        const asOf = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + i, Math.min(start.getUTCDate(), 28), 12));
        const snapshot = snapshotOf(generateCreditFile(subject, asOf), asOf);
        const previous = pulls.at(-1)?.snapshot ?? null;
        pulls.push({
          asOf,
          file: generateCreditFile(subject, asOf),
          snapshot,
          alerts: detectAlerts(previous, snapshot, asOf, subject.userId),
          scoreChange: previous !== null && Math.abs(snapshot.score - previous.score) > 10,
        });
      }
      expect(typesRaised(pulls), start.toISOString()).toEqual(ALL_TYPES);
    }
  });

  it('crosses the utilisation threshold upward, never just stays above it', () => {
    const pulls = pullsOf(person(SANDBOX_SSN.everyAlertStory), STARTS[2] as Date, 13);
    for (const [i, pull] of pulls.entries()) {
      if (!pull.alerts.some((a) => a.draft.type === 'high_utilization')) continue;
      expect(pulls[i - 1]?.snapshot.utilizationPercent).toBeLessThan(HIGH_UTILIZATION_PERCENT);
      expect(pull.snapshot.utilizationPercent).toBeGreaterThanOrEqual(HIGH_UTILIZATION_PERCENT);
    }
  });
});

describe('story 1002: a quiet file', () => {
  it('raises nothing over 24 monthly pulls, not even at the first pull, from any start', () => {
    for (const [n, start] of STARTS.entries()) {
      const pulls = pullsOf(person(SANDBOX_SSN.quietStory, n), start, 24);
      expect(pulls.flatMap((p) => p.alerts)).toEqual([]);
      const scores = new Set(pulls.flatMap((p) => p.file.monthlyScores.map((m) => m.score)));
      expect(scores.size).toBe(1);
      for (const { snapshot, file } of pulls) {
        expect(snapshot.utilizationPercent).toBeLessThan(HIGH_UTILIZATION_PERCENT);
        expect(file.flags).toEqual([]);
        expect(file.monthlyScores).toHaveLength(24);
      }
      // Not just no alerts: the file itself stands still.
      const [first, ...rest] = pulls.map((p) => ({ ...p.snapshot }));
      for (const later of rest) expect(later).toEqual(first);
    }
  });
});

describe('story 1003: a fraud flag on the file', () => {
  it('raises a critical fraud alert at the first pull after verification, whenever that is', () => {
    for (const [n, start] of STARTS.entries()) {
      const [first] = pullsOf(person(SANDBOX_SSN.fraudFlagStory, n), start, 1);
      const fraud = first?.alerts.filter((a) => a.draft.type === 'fraud_alert') ?? [];
      expect(fraud.length, start.toISOString()).toBeGreaterThanOrEqual(1);
      expect(fraud[0]?.key).toMatch(/^flag:fraud_alert:\d{4}-\d{2}-\d{2}$/);
      expect(fraud[0]?.draft.severity).toBe('critical');
      expect(first?.file.flags.some((f) => f.type === 'fraud_alert')).toBe(true);
    }
  });
});

describe('ordinary sandbox files over time', () => {
  const people = Array.from({ length: 60 }, (_, n) => person(String(2000 + n * 37).slice(-4), n));

  it('gives the same file for the same identity and day, in process and through the bureau', async () => {
    for (const subject of [...people.slice(0, 10), person(SANDBOX_SSN.everyAlertStory), person(SANDBOX_SSN.quietStory)]) {
      const asOf = new Date('2026-09-17T08:00:00Z');
      const file = generateCreditFile(subject, asOf);
      expect(generateCreditFile({ ...subject, userId: 'usr_someone_else' }, new Date('2026-09-17T22:00:00Z'))).toEqual(file);
      expect(await new SandboxBureau().pullCreditFile(subject, asOf)).toEqual({ status: 'ok', file });
    }
  });

  it('never dates anything after the day asked for, and keeps 24 monthly scores ending today', () => {
    for (const subject of [...people, person(SANDBOX_SSN.everyAlertStory), person(SANDBOX_SSN.fraudFlagStory)]) {
      for (const iso of ['2024-06-10T00:00:00Z', '2025-01-01T00:00:00Z', '2026-11-25T10:00:00Z', '2029-03-03T03:00:00Z']) {
        const asOf = new Date(iso);
        const today = iso.slice(0, 10);
        const file = generateCreditFile(subject, asOf);
        const dates = [
          ...file.tradelines.flatMap((t) => [t.openedOn, t.closedOn ?? t.openedOn]),
          ...file.inquiries.map((i) => i.date),
          ...file.reportedAddresses.map((a) => a.reportedOn),
          ...file.flags.map((f) => f.placedOn),
        ];
        for (const date of dates) expect(date <= today, `${date} after ${today}`).toBe(true);
        expect(file.monthlyScores).toHaveLength(24);
        expect(file.monthlyScores.at(-1)?.date).toBe(today);
      }
    }
  });

  it('never detects the same inquiry, account, late payment, address or flag twice across consecutive pulls', () => {
    let alerts = 0;
    for (const subject of [...people, person(SANDBOX_SSN.everyAlertStory), person(SANDBOX_SSN.fraudFlagStory)]) {
      const keys = new Set<string>();
      for (const pull of pullsOf(subject, new Date('2025-02-10T09:00:00Z'), 30)) {
        for (const { key } of pull.alerts) {
          expect(keys.has(key), key).toBe(false);
          keys.add(key);
          alerts += 1;
        }
      }
    }
    // Files do evolve: a few events per person over 30 months, not a frozen population.
    expect(alerts).toBeGreaterThan(people.length);
  });

  it('moves ordinary scores a few points a month, more after a late payment', () => {
    const moves = people.flatMap((subject) => {
      const scores = generateCreditFile(subject, new Date('2026-11-25T10:00:00Z')).monthlyScores.map((m) => m.score);
      return scores.slice(1).map((score, i) => Math.abs(score - (scores[i] as number)));
    });
    const median = moves.sort((a, b) => a - b)[Math.floor(moves.length / 2)] as number;
    expect(median).toBeGreaterThan(0);
    expect(median).toBeLessThanOrEqual(6);
  });
});

describe('pnpm bureau over HTTP', () => {
  let server: RunningBureauServer;
  const apiKey = 'bk_stories_test_key';
  beforeAll(async () => {
    server = await startBureauServer({ provider: new SandboxBureau(), apiKey });
  });
  afterAll(() => server.close());

  const post = async (path: string, subject: CreditSubject, asOf: Date) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify(toBureauRequest(subject, asOf)),
    });
    expect(res.status).toBe(200);
    return res.json();
  };

  it('answers the same evolving files as the in-process sandbox bureau, stories included', async () => {
    const bureau = new SandboxBureau();
    for (const ssn of [SANDBOX_SSN.everyAlertStory, SANDBOX_SSN.quietStory, SANDBOX_SSN.fraudFlagStory, '4821', '0000']) {
      for (const iso of ['2026-03-05T10:00:00.000Z', '2026-11-25T10:00:00.000Z']) {
        const subject = person(ssn, 4);
        const asOf = new Date(iso);
        const answer = ZBureauCreditFileAnswer.parse(await post(BUREAU_PATHS.creditFile, subject, asOf));
        expect(answer).toEqual(await bureau.pullCreditFile(subject, asOf));
        const identity = ZBureauIdentityFileAnswer.parse(await post(BUREAU_PATHS.identityFile, subject, asOf));
        expect(identity.file).toEqual(await bureau.pullIdentityFile(subject, asOf));
      }
    }
  });
});
