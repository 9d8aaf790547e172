import { describe, expect, it } from 'vitest';
import { fileFigures } from '../src/bureau/factors.ts';
import type { CreditSubject } from '../src/bureau/provider.ts';
import { generateCreditFile } from '../src/bureau/sandbox/generate-file.ts';
import { accountIdOf } from '../src/modules/credit/account-id.ts';
import { detectAlerts, FIRST_PULL_INQUIRY_DAYS, HIGH_UTILIZATION_PERCENT } from '../src/modules/monitoring/file-diff.ts';
import { type FileSnapshot, snapshotOf } from '../src/modules/monitoring/file-snapshot.ts';

const asOf = new Date('2026-11-25T10:00:00Z');
const USER_ID = 'usr_fileDiff000001';

const snapshot = (overrides: Partial<FileSnapshot> = {}): FileSnapshot => ({
  v: 1,
  bureau: 'Equifax',
  score: 700,
  inquiries: [{ source: 'Woodgrove Bank', date: '2025-06-01' }],
  accounts: [
    {
      id: 'tl_1',
      lender: 'Northwind Bank',
      kind: 'credit_card',
      openedOn: '2015-02-03',
      closedOn: null,
      latePayments: 1,
    },
    { id: 'tl_2', lender: 'Contoso Auto Finance', kind: 'auto_loan', openedOn: '2022-05-06', closedOn: null, latePayments: 0 },
  ],
  utilizationPercent: 22,
  totalBalance: 2200,
  totalLimit: 10_000,
  addresses: [{ city: 'Austin', state: 'TX', zipCode: '78705', reportedOn: '2019-03-04' }],
  flags: [],
  ...overrides,
});

const keysOf = (previous: FileSnapshot | null, next: FileSnapshot) =>
  detectAlerts(previous, next, asOf, USER_ID).map((a) => a.key);

describe('detectAlerts: the first pull after verification', () => {
  it('raises only inquiries of the last 30 days and the flags on file, nothing from the rest of the file', () => {
    const next = snapshot({
      inquiries: [
        { source: 'Woodgrove Bank', date: '2026-10-25' },
        { source: 'Fabrikam Credit Union', date: '2026-10-26' },
        { source: 'Lamna Healthcare Financing', date: '2026-11-24' },
      ],
      utilizationPercent: 80,
      flags: [{ type: 'active_duty_alert', placedOn: '2024-02-01' }],
    });
    expect(FIRST_PULL_INQUIRY_DAYS).toBe(30);
    expect(keysOf(null, next)).toEqual([
      'flag:active_duty_alert:2024-02-01',
      'inquiry:Fabrikam Credit Union:2026-10-26',
      'inquiry:Lamna Healthcare Financing:2026-11-24',
    ]);
  });

  it('raises nothing for a file without recent inquiries or flags', () => {
    expect(detectAlerts(null, snapshot(), asOf, USER_ID)).toEqual([]);
  });
});

describe('detectAlerts: one file against the previous one', () => {
  it('raises nothing when nothing changed', () => {
    expect(detectAlerts(snapshot(), snapshot(), asOf, USER_ID)).toEqual([]);
  });

  it('raises a new inquiry with data {inquirySource, inquiryDate}, once: an inquiry already on file is not news', () => {
    const previous = snapshot();
    const next = snapshot({ inquiries: [...previous.inquiries, { source: 'Contoso Card Services', date: '2026-11-20' }] });
    const [alert, ...others] = detectAlerts(previous, next, asOf, USER_ID);
    expect(others).toEqual([]);
    expect(alert?.key).toBe('inquiry:Contoso Card Services:2026-11-20');
    expect(alert?.draft).toMatchObject({ type: 'new_inquiry', severity: 'info' });
    expect(alert?.draft.data).toEqual({ inquirySource: 'Contoso Card Services', inquiryDate: '2026-11-20' });
    expect(detectAlerts(next, next, asOf, USER_ID)).toEqual([]);
    // An inquiry ageing off the file is not an alert either.
    expect(detectAlerts(next, snapshot({ inquiries: [] }), asOf, USER_ID)).toEqual([]);
  });

  it('raises opened, closed and late-payment alerts keyed by account (and count)', () => {
    const previous = snapshot();
    const [card, loan] = previous.accounts as [FileSnapshot['accounts'][number], FileSnapshot['accounts'][number]];
    const next = snapshot({
      accounts: [
        { ...card, latePayments: 3 },
        { ...loan, closedOn: '2026-11-02' },
        {
          id: 'tl_202611',
          lender: 'Wide World Bank',
          kind: 'credit_card',
          openedOn: '2026-11-03',
          closedOn: null,
          latePayments: 0,
        },
        {
          id: 'tl_202610',
          lender: 'Proseware Lending',
          kind: 'personal_loan',
          openedOn: '2026-10-03',
          closedOn: '2026-11-01',
          latePayments: 0,
        },
      ],
    });
    const alerts = detectAlerts(previous, next, asOf, USER_ID);
    expect(alerts.map((a) => a.key)).toEqual([
      'late:tl_1:3',
      'account-closed:tl_2',
      'account-opened:tl_202611',
      'account-opened:tl_202610',
      'account-closed:tl_202610',
    ]);
    const byKey = new Map(alerts.map((a) => [a.key, a.draft]));
    expect(byKey.get('late:tl_1:3')?.data).toEqual({
      accountId: accountIdOf(USER_ID, 'tl_1'),
      lender: 'Northwind Bank',
      accountType: 'credit_card',
      daysLate: 30,
      reportedDate: '2026-11-25',
      latePayments: 3,
    });
    expect(byKey.get('late:tl_1:3')?.severity).toBe('warning');
    expect(byKey.get('account-closed:tl_2')?.data).toEqual({
      accountId: accountIdOf(USER_ID, 'tl_2'),
      lender: 'Contoso Auto Finance',
      accountType: 'auto_loan',
      closedDate: '2026-11-02',
    });
    expect(byKey.get('account-opened:tl_202611')?.data).toEqual({
      accountId: accountIdOf(USER_ID, 'tl_202611'),
      lender: 'Wide World Bank',
      accountType: 'credit_card',
      openedDate: '2026-11-03',
    });
    expect(byKey.get('account-opened:tl_202611')?.title).toBe('New credit card opened with Wide World Bank');
  });

  it('raises high utilisation only when it crosses the threshold upward', () => {
    const at = (utilizationPercent: number) => snapshot({ utilizationPercent, totalBalance: utilizationPercent * 100 });
    expect(HIGH_UTILIZATION_PERCENT).toBe(30);
    const crossed = detectAlerts(at(29.9), at(30), asOf, USER_ID);
    expect(crossed.map((a) => a.key)).toEqual(['utilization:2026-11-25']);
    expect(crossed[0]?.draft.data).toEqual({
      utilizationPercent: 30,
      totalBalance: 3000,
      totalLimit: 10_000,
      thresholdPercent: 30,
    });
    expect(detectAlerts(at(35), at(60), asOf, USER_ID)).toEqual([]);
    expect(detectAlerts(at(60), at(20), asOf, USER_ID)).toEqual([]);
    expect(detectAlerts(at(10), at(29.9), asOf, USER_ID)).toEqual([]);
  });

  it('raises an address change with city, state and date, never the street', () => {
    const previous = snapshot();
    const next = snapshot({
      addresses: [...previous.addresses, { city: 'Boise', state: 'ID', zipCode: '83710', reportedOn: '2026-11-09' }],
    });
    const alerts = detectAlerts(previous, next, asOf, USER_ID);
    expect(alerts.map((a) => a.key)).toEqual(['address:83710:2026-11-09']);
    expect(alerts[0]?.draft.data).toEqual({ city: 'Boise', state: 'ID', reportedDate: '2026-11-09' });
  });

  it('raises a critical fraud alert for a flag that appears, not for one that lapses', () => {
    const previous = snapshot({ flags: [{ type: 'active_duty_alert', placedOn: '2026-01-10' }] });
    const next = snapshot({ flags: [{ type: 'fraud_alert', placedOn: '2026-11-12' }] });
    const alerts = detectAlerts(previous, next, asOf, USER_ID);
    expect(alerts.map((a) => a.key)).toEqual(['flag:fraud_alert:2026-11-12']);
    expect(alerts[0]?.draft).toMatchObject({ type: 'fraud_alert', severity: 'critical' });
    expect(alerts[0]?.draft.data).toEqual({ reason: 'fraud_alert_placed', source: 'Equifax', reportedDate: '2026-11-12' });
    expect(detectAlerts(next, snapshot(), asOf, USER_ID)).toEqual([]);
  });
});

describe('snapshotOf', () => {
  const subject: CreditSubject = {
    userId: 'usr_snap',
    firstName: 'Ada',
    lastName: 'Snapshot',
    ssnLast4: '1001',
    dateOfBirth: '1980-02-02',
    address: { street: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
  };

  it('keeps what the comparison needs, with the factor’s utilisation and no street', () => {
    const file = generateCreditFile(subject, asOf);
    const snap = snapshotOf(file, asOf);
    const figures = fileFigures(file, asOf);
    expect(snap.score).toBe(file.monthlyScores.at(-1)?.score);
    expect([snap.utilizationPercent, snap.totalBalance, snap.totalLimit]).toEqual([
      figures.utilizationPercent,
      figures.totalBalance,
      figures.totalLimit,
    ]);
    expect(snap.accounts.map((a) => a.id)).toEqual(file.tradelines.map((t) => t.id));
    expect(snap.addresses).toHaveLength(file.reportedAddresses.length);
    const stored = JSON.stringify(snap);
    expect(file.reportedAddresses.length).toBeGreaterThan(0);
    for (const { street } of file.reportedAddresses) expect(stored).not.toContain(street);
    expect(stored).not.toMatch(/"street"|"balance"/);
    // It survives the JSON round trip the job stores it through.
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap);
  });
});
