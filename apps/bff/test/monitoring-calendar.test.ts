import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeClient } from '../src/modules/clients/service.ts';
import { runClockAdvancesUntilIdle } from '../src/modules/clocks/service.ts';
import { dueOfPeriod, nextDueAfter, type Schedule } from '../src/modules/monitoring/cadence.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { enrolUser, verifyUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

const DAY = 86_400_000;
const monthOf = (date: Date) => `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
/** Written apart from the code under test: the last day of the month is the day before the next month's first. */
const lastDayOf = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 1) - DAY).getUTCDate();
/** A year after `start`, on the same day of the month, or the month's last day when it has none (29 February). */
const anniversaryOf = (start: Date) => {
  const year = start.getUTCFullYear() + 1;
  const day = Math.min(start.getUTCDate(), lastDayOf(year, start.getUTCMonth()));
  return new Date(Date.UTC(year, start.getUTCMonth(), day, start.getUTCHours(), start.getUTCMinutes()));
};

describe('calendar periods', () => {
  const everyDayOf = (year: number) => {
    const days: Date[] = [];
    for (let at = Date.UTC(year, 0, 1, 9, 30); new Date(at).getUTCFullYear() === year; at += DAY) days.push(new Date(at));
    return days;
  };

  it('gives every start day of a year, 29 February included, twelve periods in twelve distinct months', () => {
    for (const start of [...everyDayOf(2027), ...everyDayOf(2028)]) {
      const schedule: Schedule = { cadence: 'monthly', anchor: start };
      const dues = [start];
      while (dues.length < 13) dues.push(nextDueAfter(dues.at(-1) as Date, schedule));
      const yearEnd = anniversaryOf(start).getTime();
      const inYear = dues.filter((due) => due.getTime() < yearEnd);
      expect(inYear, start.toISOString()).toHaveLength(12);
      expect(new Set(inYear.map(monthOf)).size, start.toISOString()).toBe(12);
      dues.forEach((due, k) => {
        const year = start.getUTCFullYear() + Math.floor((start.getUTCMonth() + k) / 12);
        const month = (start.getUTCMonth() + k) % 12;
        const day = Math.min(start.getUTCDate(), lastDayOf(year, month));
        expect(due.toISOString(), `${start.toISOString()} period ${k}`).toBe(
          new Date(Date.UTC(year, month, day, 9, 30)).toISOString(),
        );
        // Counting from the anchor and stepping from the last due date agree.
        expect(dueOfPeriod(k, schedule).toISOString()).toBe(due.toISOString());
      });
    }
  });

  it('renews a start on the 31st on the last day of shorter months, then on the 31st again', () => {
    const schedule: Schedule = { cadence: 'monthly', anchor: new Date('2027-01-31T08:00:00Z') };
    const dues = [schedule.anchor];
    while (dues.length < 5) dues.push(nextDueAfter(dues.at(-1) as Date, schedule));
    expect(dues.map((d) => d.toISOString().slice(0, 10))).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
    ]);
  });

  it('moves a schedule of 30-day steps onto the calendar at its next period, without a second pull that month', () => {
    // A user anchored on the 1st whose 30-day steps had reached 31 May: the next period is in June, on the 1st.
    const schedule: Schedule = { cadence: 'monthly', anchor: new Date('2027-01-01T12:00:00Z') };
    expect(nextDueAfter(new Date('2027-05-31T12:00:00Z'), schedule).toISOString()).toBe('2027-06-01T12:00:00.000Z');
    expect(nextDueAfter(new Date('2027-06-01T12:00:00Z'), schedule).toISOString()).toBe('2027-07-01T12:00:00.000Z');
  });

  it('steps weekly customers by seven days, and an operator’s fixed interval replaces both', () => {
    const anchor = new Date('2027-03-01T00:00:00Z');
    expect(nextDueAfter(anchor, { cadence: 'weekly', anchor }).toISOString()).toBe('2027-03-08T00:00:00.000Z');
    expect(nextDueAfter(anchor, { cadence: 'monthly', anchor, fixedIntervalMs: 2 * DAY }).toISOString()).toBe(
      '2027-03-03T00:00:00.000Z',
    );
  });
});

describe('a clock year of monitoring, through the API', () => {
  let app: TestApp;
  let client: TestClient;
  let token: string;

  beforeAll(async () => {
    // The product's own cadence: no fixed interval.
    app = await startTestApp({ config: { MONITORING_INTERVAL: '' } });
    client = await app.createClient();
    token = await app.token(client);
  });
  afterAll(() => app.close());

  /** The first `month`/`day` (UTC, 10:00) at least a day after the app's now, if it falls within the clocks' two years. */
  const nextDate = (month: number, day: number): Date | undefined => {
    const now = app.clock.now();
    for (let year = now.getUTCFullYear(); year <= now.getUTCFullYear() + 2; year++) {
      const at = new Date(Date.UTC(year, month - 1, day, 10));
      if (at.getUTCMonth() !== month - 1) continue;
      if (at.getTime() > now.getTime() + DAY && at.getTime() < now.getTime() + 700 * DAY) return at;
    }
    return undefined;
  };

  /** Starts a clock at `start`, verifies a new customer on it (the first pull), and advances it a year less a minute. */
  const yearOnClock = async (start: Date, ssn = '1002') => {
    const created = await app.request('POST', '/v1/sandbox/clocks', {
      token,
      body: { name: `From ${start.toISOString()}`, frozenTime: start.toISOString() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const clockId = created.body.data.clockId as string;
    const userId = await enrolUser(app, token, { ssn });
    const attached = await app.request('POST', `/v1/sandbox/clocks/${clockId}/users`, { token, body: { userIds: [userId] } });
    expect(attached.status, JSON.stringify(attached.body)).toBe(200);
    await verifyUser(app, token, userId);
    await runMonitoringUntilIdle(app.ctx);
    const yearLater = new Date(anniversaryOf(start).getTime() - 60_000);
    const advanced = await app.request('POST', `/v1/sandbox/clocks/${clockId}/advance`, {
      token,
      body: { frozenTime: yearLater.toISOString() },
    });
    expect(advanced.status, JSON.stringify(advanced.body)).toBe(202);
    await runClockAdvancesUntilIdle(app.ctx);
    const { rows } = await app.db.query<{ score_date: string }>(
      `select score_date::text from score_history where user_id = $1 and score_date >= $2::date order by seq`,
      [userId, start.toISOString().slice(0, 10)],
    );
    return { userId, pulledOn: rows.map((r) => r.score_date) };
  };

  it('records twelve points in twelve distinct months from a start on the 31st, 29 February and 1 December', async () => {
    const starts = [nextDate(1, 31), nextDate(2, 29), nextDate(12, 1), nextDate(8, 30)].filter(
      (start): start is Date => start !== undefined,
    );
    expect(starts.length).toBeGreaterThanOrEqual(3);
    for (const start of starts) {
      const { userId, pulledOn } = await yearOnClock(start);
      expect(pulledOn, start.toISOString()).toHaveLength(12);
      expect(new Set(pulledOn.map((d) => d.slice(0, 7))).size, start.toISOString()).toBe(12);
      for (const date of pulledOn) {
        const [year, month] = date.split('-').map(Number) as [number, number];
        const expectedDay = Math.min(start.getUTCDate(), lastDayOf(year, month - 1));
        expect(Number(date.slice(8, 10)), `${start.toISOString()}: ${date}`).toBe(expectedDay);
      }
      // The history answers one point a month: the year's twelve, and the file's earlier months before them.
      const history = await app.request('GET', `/v1/users/${userId}/credit-score/history?months=12&limit=100`, { token });
      expect(history.status, JSON.stringify(history.body)).toBe(200);
      const months = (history.body.data as { date: string }[]).map((point) => point.date.slice(0, 7));
      expect(new Set(months).size).toBe(months.length);
    }
  });

  it('refreshes a weekly client’s customers every seven days and shows each month’s last point', async () => {
    const weekly = await app.createClient();
    await changeClient(app.db, weekly.id, { monitoringCadence: 'weekly' });
    await app.invalidationsArrived();
    const weeklyToken = await app.token(weekly);
    const start = nextDate(3, 1) as Date;
    const created = await app.request('POST', '/v1/sandbox/clocks', {
      token: weeklyToken,
      body: { frozenTime: start.toISOString() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const clockId = created.body.data.clockId as string;
    const userId = await enrolUser(app, weeklyToken, { ssn: '1002' });
    await app.request('POST', `/v1/sandbox/clocks/${clockId}/users`, { token: weeklyToken, body: { userIds: [userId] } });
    await verifyUser(app, weeklyToken, userId);
    const target = new Date(start.getTime() + 63 * DAY - 60_000);
    const advanced = await app.request('POST', `/v1/sandbox/clocks/${clockId}/advance`, {
      token: weeklyToken,
      body: { frozenTime: target.toISOString() },
    });
    expect(advanced.status, JSON.stringify(advanced.body)).toBe(202);
    await runClockAdvancesUntilIdle(app.ctx);
    const { rows } = await app.db.query<{ score_date: string }>(
      'select score_date::text from score_history where user_id = $1 and score_date >= $2::date order by seq',
      [userId, start.toISOString().slice(0, 10)],
    );
    // Nine weeks: the first pull and eight weekly periods.
    expect(rows).toHaveLength(9);
    const history = await app.request('GET', `/v1/users/${userId}/credit-score/history?months=3&limit=100`, {
      token: weeklyToken,
    });
    const points = history.body.data as { date: string }[];
    const lastOfMonth = new Map<string, string>();
    for (const row of rows) lastOfMonth.set(row.score_date.slice(0, 7), row.score_date);
    for (const [month, date] of lastOfMonth) {
      expect(points.find((point) => point.date.startsWith(month))?.date).toBe(date);
    }
    expect(new Set(points.map((point) => point.date.slice(0, 7))).size).toBe(points.length);
  });
});
