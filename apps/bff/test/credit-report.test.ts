import { PAYMENT_HISTORY_MONTHS, type TCreditReport, type TCreditScore } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreditFile } from '../src/bureau/provider.ts';
import { generateCreditFile } from '../src/bureau/sandbox/generate-file.ts';
import { userTag } from '../src/cache/read-cache.ts';
import { SeededRandom } from '../src/lib/seeded-random.ts';
import { accountIdOf } from '../src/modules/credit/account-id.ts';
import { openCreditFile, sealCreditFile } from '../src/modules/credit/file-on-record.ts';
import { creditReportOf, maskName, maskStreet } from '../src/modules/credit/report.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { DataCipher } from '../src/security/encryption.ts';
import type { countingBureau } from './helpers/counting-bureau.ts';
import { auditEntriesOf, READ_DAY, readReport, readScore, startCreditReadApp } from './helpers/credit-reads.ts';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import type { TestApp, TestClient } from './helpers/harness.ts';
import { sandboxSubject } from './helpers/sandbox-subject.ts';

const DAY = 86_400_000;

let app: TestApp;
let client: TestClient;
let counting: ReturnType<typeof countingBureau>;
let tok: () => Promise<string>;
beforeAll(async () => {
  ({ app, client, counting, tok } = await startCreditReadApp());
});
afterAll(() => app.close());

const reportOf = async (userId: string, token?: string) =>
  app.request<{ data: TCreditReport; error?: { code: string } }>('GET', `/v1/users/${userId}/credit-report`, {
    token: token ?? (await tok()),
  });
const report = async (userId: string): Promise<TCreditReport> => readReport(app, await tok(), userId);
const scoreOf = async (userId: string): Promise<TCreditScore> => readScore(app, await tok(), userId);
const factor = (score: TCreditScore, code: string) => {
  const found = score.factors.find((f) => f.code === code);
  if (!found) throw new Error(`no ${code} factor`);
  return found as typeof found & { details?: Record<string, number> };
};
const monthBefore = (month: string, n: number) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 - n, 1)).toISOString().slice(0, 7);
};
const LATE = new Set(['30', '60', '90', '120']);

/** USPS Publication 28, appendix C1: each street suffix's primary name and its standard abbreviation. */
const USPS_SUFFIXES: readonly (readonly [string, string])[] = [
  ['ALLEY', 'ALY'],
  ['ANNEX', 'ANX'],
  ['ARCADE', 'ARC'],
  ['AVENUE', 'AVE'],
  ['BAYOU', 'BYU'],
  ['BEACH', 'BCH'],
  ['BEND', 'BND'],
  ['BLUFF', 'BLF'],
  ['BLUFFS', 'BLFS'],
  ['BOTTOM', 'BTM'],
  ['BOULEVARD', 'BLVD'],
  ['BRANCH', 'BR'],
  ['BRIDGE', 'BRG'],
  ['BROOK', 'BRK'],
  ['BROOKS', 'BRKS'],
  ['BURG', 'BG'],
  ['BURGS', 'BGS'],
  ['BYPASS', 'BYP'],
  ['CAMP', 'CP'],
  ['CANYON', 'CYN'],
  ['CAPE', 'CPE'],
  ['CAUSEWAY', 'CSWY'],
  ['CENTER', 'CTR'],
  ['CENTERS', 'CTRS'],
  ['CIRCLE', 'CIR'],
  ['CIRCLES', 'CIRS'],
  ['CLIFF', 'CLF'],
  ['CLIFFS', 'CLFS'],
  ['CLUB', 'CLB'],
  ['COMMON', 'CMN'],
  ['COMMONS', 'CMNS'],
  ['CORNER', 'COR'],
  ['CORNERS', 'CORS'],
  ['COURSE', 'CRSE'],
  ['COURT', 'CT'],
  ['COURTS', 'CTS'],
  ['COVE', 'CV'],
  ['COVES', 'CVS'],
  ['CREEK', 'CRK'],
  ['CRESCENT', 'CRES'],
  ['CREST', 'CRST'],
  ['CROSSING', 'XING'],
  ['CROSSROAD', 'XRD'],
  ['CROSSROADS', 'XRDS'],
  ['CURVE', 'CURV'],
  ['DALE', 'DL'],
  ['DAM', 'DM'],
  ['DIVIDE', 'DV'],
  ['DRIVE', 'DR'],
  ['DRIVES', 'DRS'],
  ['ESTATE', 'EST'],
  ['ESTATES', 'ESTS'],
  ['EXPRESSWAY', 'EXPY'],
  ['EXTENSION', 'EXT'],
  ['EXTENSIONS', 'EXTS'],
  ['FALL', 'FALL'],
  ['FALLS', 'FLS'],
  ['FERRY', 'FRY'],
  ['FIELD', 'FLD'],
  ['FIELDS', 'FLDS'],
  ['FLAT', 'FLT'],
  ['FLATS', 'FLTS'],
  ['FORD', 'FRD'],
  ['FORDS', 'FRDS'],
  ['FOREST', 'FRST'],
  ['FORGE', 'FRG'],
  ['FORGES', 'FRGS'],
  ['FORK', 'FRK'],
  ['FORKS', 'FRKS'],
  ['FORT', 'FT'],
  ['FREEWAY', 'FWY'],
  ['GARDEN', 'GDN'],
  ['GARDENS', 'GDNS'],
  ['GATEWAY', 'GTWY'],
  ['GLEN', 'GLN'],
  ['GLENS', 'GLNS'],
  ['GREEN', 'GRN'],
  ['GREENS', 'GRNS'],
  ['GROVE', 'GRV'],
  ['GROVES', 'GRVS'],
  ['HARBOR', 'HBR'],
  ['HARBORS', 'HBRS'],
  ['HAVEN', 'HVN'],
  ['HEIGHTS', 'HTS'],
  ['HIGHWAY', 'HWY'],
  ['HILL', 'HL'],
  ['HILLS', 'HLS'],
  ['HOLLOW', 'HOLW'],
  ['INLET', 'INLT'],
  ['ISLAND', 'IS'],
  ['ISLANDS', 'ISS'],
  ['ISLE', 'ISLE'],
  ['JUNCTION', 'JCT'],
  ['JUNCTIONS', 'JCTS'],
  ['KEY', 'KY'],
  ['KEYS', 'KYS'],
  ['KNOLL', 'KNL'],
  ['KNOLLS', 'KNLS'],
  ['LAKE', 'LK'],
  ['LAKES', 'LKS'],
  ['LAND', 'LAND'],
  ['LANDING', 'LNDG'],
  ['LANE', 'LN'],
  ['LIGHT', 'LGT'],
  ['LIGHTS', 'LGTS'],
  ['LOAF', 'LF'],
  ['LOCK', 'LCK'],
  ['LOCKS', 'LCKS'],
  ['LODGE', 'LDG'],
  ['LOOP', 'LOOP'],
  ['MALL', 'MALL'],
  ['MANOR', 'MNR'],
  ['MANORS', 'MNRS'],
  ['MEADOW', 'MDW'],
  ['MEADOWS', 'MDWS'],
  ['MEWS', 'MEWS'],
  ['MILL', 'ML'],
  ['MILLS', 'MLS'],
  ['MISSION', 'MSN'],
  ['MOTORWAY', 'MTWY'],
  ['MOUNT', 'MT'],
  ['MOUNTAIN', 'MTN'],
  ['MOUNTAINS', 'MTNS'],
  ['NECK', 'NCK'],
  ['ORCHARD', 'ORCH'],
  ['OVAL', 'OVAL'],
  ['OVERPASS', 'OPAS'],
  ['PARK', 'PARK'],
  ['PARKS', 'PARK'],
  ['PARKWAY', 'PKWY'],
  ['PARKWAYS', 'PKWY'],
  ['PASS', 'PASS'],
  ['PASSAGE', 'PSGE'],
  ['PATH', 'PATH'],
  ['PIKE', 'PIKE'],
  ['PINE', 'PNE'],
  ['PINES', 'PNES'],
  ['PLACE', 'PL'],
  ['PLAIN', 'PLN'],
  ['PLAINS', 'PLNS'],
  ['PLAZA', 'PLZ'],
  ['POINT', 'PT'],
  ['POINTS', 'PTS'],
  ['PORT', 'PRT'],
  ['PORTS', 'PRTS'],
  ['PRAIRIE', 'PR'],
  ['RADIAL', 'RADL'],
  ['RAMP', 'RAMP'],
  ['RANCH', 'RNCH'],
  ['RAPID', 'RPD'],
  ['RAPIDS', 'RPDS'],
  ['REST', 'RST'],
  ['RIDGE', 'RDG'],
  ['RIDGES', 'RDGS'],
  ['RIVER', 'RIV'],
  ['ROAD', 'RD'],
  ['ROADS', 'RDS'],
  ['ROUTE', 'RTE'],
  ['ROW', 'ROW'],
  ['RUE', 'RUE'],
  ['RUN', 'RUN'],
  ['SHOAL', 'SHL'],
  ['SHOALS', 'SHLS'],
  ['SHORE', 'SHR'],
  ['SHORES', 'SHRS'],
  ['SKYWAY', 'SKWY'],
  ['SPRING', 'SPG'],
  ['SPRINGS', 'SPGS'],
  ['SPUR', 'SPUR'],
  ['SPURS', 'SPUR'],
  ['SQUARE', 'SQ'],
  ['SQUARES', 'SQS'],
  ['STATION', 'STA'],
  ['STRAVENUE', 'STRA'],
  ['STREAM', 'STRM'],
  ['STREET', 'ST'],
  ['STREETS', 'STS'],
  ['SUMMIT', 'SMT'],
  ['TERRACE', 'TER'],
  ['THROUGHWAY', 'TRWY'],
  ['TRACE', 'TRCE'],
  ['TRACK', 'TRAK'],
  ['TRAFFICWAY', 'TRFY'],
  ['TRAIL', 'TRL'],
  ['TRAILER', 'TRLR'],
  ['TUNNEL', 'TUNL'],
  ['TURNPIKE', 'TPKE'],
  ['UNDERPASS', 'UPAS'],
  ['UNION', 'UN'],
  ['UNIONS', 'UNS'],
  ['VALLEY', 'VLY'],
  ['VALLEYS', 'VLYS'],
  ['VIADUCT', 'VIA'],
  ['VIEW', 'VW'],
  ['VIEWS', 'VWS'],
  ['VILLAGE', 'VLG'],
  ['VILLAGES', 'VLGS'],
  ['VILLE', 'VL'],
  ['VISTA', 'VIS'],
  ['WALK', 'WALK'],
  ['WALKS', 'WALK'],
  ['WALL', 'WALL'],
  ['WAY', 'WAY'],
  ['WAYS', 'WAYS'],
  ['WELL', 'WL'],
  ['WELLS', 'WLS'],
];
const USPS_WORDS = new Set(USPS_SUFFIXES.flat());
const isUspsSuffix = (word: string) => USPS_WORDS.has(word.replace(/\.$/, '').toUpperCase());
const titleCase = (word: string) => word[0] + word.slice(1).toLowerCase();
/** Street names built from words that are street types themselves, and from plain names. */
const NAME_WORDS = [
  'Court',
  'Trail',
  'Park',
  'Loop',
  'Way',
  'Square',
  'Lake',
  'Hill',
  'Mill',
  'Ridge',
  'Forest',
  'Spring',
  'Sunset',
  'Maple',
  'Cherry',
  'Martin',
  'Luther',
  'King',
  'Ocean',
  'Willow',
  'Élan',
  "O'Neil",
  'Saint-Jean',
];
const DIRECTIONALS = ['North', 'N', 'SW', 'East', 'W.'];
const UNITS = [['Apt', '4B'], ['Unit', '12'], ['Ste', '300'], ['#5'], ['Apt', 'Court']];

/**
 * A street line as the test expects it masked: the word at `typeIndex` exactly as written; every other word its first
 * character, then • for each further letter or digit (punctuation kept), so each word keeps its length.
 */
const expectedMaskOf = (street: string, typeIndex: number): string =>
  street
    .split(' ')
    .map((word, i) => {
      if (i === typeIndex) return word;
      const [first = '', ...rest] = Array.from(word);
      return first + rest.map((c) => (/[\p{L}\p{N}]/u.test(c) ? '•' : c)).join('');
    })
    .join(' ');
const expectMaskedStreet = (street: string, masked: string, typeIndex: number) => {
  expect(masked, street).toBe(expectedMaskOf(street, typeIndex));
  expect(Array.from(masked), street).toHaveLength(Array.from(street).length);
};

/** Identities of ordinary sandbox files, with and without weak credit, so the checks meet varied files. */
const IDENTITIES = [
  { firstName: 'Jane', lastName: 'Doe', ssn: '1234', dateOfBirth: '1985-04-12' },
  { firstName: 'Alex', lastName: 'Morgan', ssn: '4321', dateOfBirth: '1979-11-02' },
  { firstName: 'Rosa', lastName: 'Parks', ssn: '5810', dateOfBirth: '1992-02-04' },
  { firstName: 'Sam', lastName: 'Lee', ssn: '7777', dateOfBirth: '1964-08-30' },
  { firstName: 'Kai', lastName: 'Ito', ssn: '2468', dateOfBirth: '2001-06-18' },
  { firstName: 'Story', lastName: 'Teller', ssn: '1001', dateOfBirth: '1988-03-09' },
];

describe('GET /v1/users/{userId}/credit-report', () => {
  it('answers summary figures equal to the score’s factors, and a summary the accounts add up to', async () => {
    for (const identity of IDENTITIES) {
      const userId = await enrolActiveUser(app, await tok(), identity);
      const [data, score] = [await report(userId), await scoreOf(userId)];
      const what = `${identity.ssn}`;
      expect(data.userId).toBe(userId);
      expect(data.bureau).toBe(score.bureau);
      expect(data.reportDate).toBe('2026-11-23');
      expect(data.pulledAt).toBe(READ_DAY);

      const { summary } = data;
      expect(factor(score, 'CREDIT_UTILIZATION').details, what).toEqual({
        utilizationPercent: summary.utilizationPercent,
        totalBalance: summary.cardBalance,
        totalLimit: summary.totalCreditLimit,
      });
      expect(factor(score, 'CREDIT_AGE').details, what).toEqual({
        averageAgeYears: summary.averageAccountAgeYears,
        oldestAccountYears: summary.oldestAccountAgeYears,
      });
      expect(factor(score, 'NEW_CREDIT').details, what).toEqual({ recentInquiries: summary.hardInquiries12Months });
      const payment = factor(score, 'PAYMENT_HISTORY').description;
      if (summary.latePayments === 0) expect(payment).toMatch(/^Every payment/);
      else
        expect(payment, what).toContain(
          `${summary.onTimePaymentPercent}% of your payments were on time; ${summary.latePayments}`,
        );

      const tradelines = data.accounts.filter((a) => a.type !== 'collection');
      const open = tradelines.filter((a) => a.closedOn === null);
      expect(summary.openAccounts).toBe(open.length);
      expect(summary.totalBalance).toBe(tradelines.reduce((sum, a) => sum + a.balance, 0));
      expect(summary.totalBalance).toBeGreaterThanOrEqual(summary.cardBalance);
      expect(summary.totalMonthlyPayments).toBe(open.reduce((sum, a) => sum + (a.monthlyPayment ?? 0), 0));
      expect(summary.latePayments).toBe(tradelines.reduce((sum, a) => sum + a.latePayments, 0));
      expect(summary.hardInquiries24Months).toBe(data.inquiries.filter((i) => i.kind === 'hard').length);
      expect(summary.hardInquiries24Months).toBeGreaterThanOrEqual(summary.hardInquiries12Months);
      expect(summary.derogatoryMarks).toBe(
        data.accounts.filter((a) => a.type === 'collection' || a.status === 'charged_off').length + data.publicRecords.length,
      );
    }
  });

  it('lists accounts open first then closed, newest first, collections last, each with 24 months of history', async () => {
    for (const identity of IDENTITIES) {
      const userId = await enrolActiveUser(app, await tok(), identity);
      const { accounts, reportDate, inquiries } = await report(userId);
      const tradelines = accounts.filter((a) => a.type !== 'collection');
      expect(accounts.slice(0, tradelines.length)).toEqual(tradelines);
      const firstClosed = tradelines.findIndex((a) => a.closedOn !== null);
      if (firstClosed >= 0) expect(tradelines.slice(firstClosed).every((a) => a.closedOn !== null)).toBe(true);
      for (const group of [tradelines.filter((a) => !a.closedOn), tradelines.filter((a) => a.closedOn)]) {
        const opened = group.map((a) => a.openedOn);
        expect(opened).toEqual([...opened].sort().reverse());
      }
      expect(new Set(accounts.map((a) => a.accountId)).size).toBe(accounts.length);
      for (const account of accounts) {
        expect(account.accountId).toMatch(/^acc_[0-9a-f]{20}$/);
        expect(account.paymentHistory).toHaveLength(PAYMENT_HISTORY_MONTHS);
        expect(account.paymentHistory.map((m) => m.month)).toEqual(
          Array.from({ length: PAYMENT_HISTORY_MONTHS }, (_, i) => monthBefore(reportDate.slice(0, 7), i)),
        );
        // Every late month in the grid is one of the account's late payments (those cover its whole life).
        expect(account.paymentHistory.filter((m) => LATE.has(m.status)).length).toBeLessThanOrEqual(account.latePayments);
        const card = account.type === 'credit_card';
        expect(account.creditLimit === null).toBe(!card);
        expect(account.originalAmount === null).toBe(card);
        if (card && account.closedOn === null && (account.creditLimit ?? 0) > 0) {
          expect(account.utilizationPercent).toBe(Math.round((account.balance / (account.creditLimit ?? 1)) * 1000) / 10);
        } else {
          expect(account.utilizationPercent).toBeNull();
        }
        if (account.type === 'collection') {
          expect(['in_collection', 'paid_collection']).toContain(account.status);
          expect(account.originalCreditor).not.toBeNull();
        } else {
          expect(account.originalCreditor).toBeNull();
        }
      }
      const dates = inquiries.map((i) => i.date);
      expect(dates).toEqual([...dates].sort().reverse());
    }
  });

  it('keeps an account’s id across pulls, and hides the bureau’s own id', async () => {
    const userId = await enrolActiveUser(app, await tok(), IDENTITIES[5]);
    const before = await report(userId);
    const started = app.clock.now();
    try {
      app.clock.advance(30 * DAY);
      await runMonitoringUntilIdle(app.ctx);
      const after = await report(userId);
      expect(after.reportDate).not.toBe(before.reportDate);
      const key = (a: TCreditReport['accounts'][number]) => `${a.type}|${a.creditor}|${a.openedOn}`;
      const ids = new Map(after.accounts.map((a) => [key(a), a.accountId]));
      for (const account of before.accounts) {
        if (ids.has(key(account))) expect(ids.get(key(account)), key(account)).toBe(account.accountId);
      }
      const file = await fileOnRecord(userId);
      const text = JSON.stringify(after);
      for (const t of file.tradelines) {
        expect(text).not.toContain(`"${t.id}"`);
        expect(after.accounts.map((a) => a.accountId)).toContain(accountIdOf(userId, t.id));
      }
    } finally {
      app.clock.set(started);
    }
  });

  it('masks street lines and employers, most recent first, and never shows a street as stored', async () => {
    const userId = await enrolActiveUser(app, await tok(), {
      ...IDENTITIES[0],
      address: { street: '1234 Maple Street', city: 'Springfield', state: 'IL', zipCode: '62701' },
    });
    const { personalInformation } = await report(userId);
    const file = await fileOnRecord(userId);
    expect(personalInformation.addresses).toHaveLength(file.reportedAddresses.length);
    expect(personalInformation.names).toEqual(file.names);
    expect(personalInformation.yearOfBirth).toBe(file.yearOfBirth);
    const reported = personalInformation.addresses.map((a) => a.reportedOn);
    expect(reported).toEqual([...reported].sort().reverse());
    const text = JSON.stringify(personalInformation);
    for (const address of file.reportedAddresses) {
      expect(text).not.toContain(address.street);
      expect(personalInformation.addresses.map((a) => a.street)).toContain(maskStreet(address.street));
    }
    for (const employer of file.employers) {
      if (employer.name.replace(/\s/g, '').length > employer.name.split(/\s+/).length) expect(text).not.toContain(employer.name);
    }
    expect(personalInformation.employers.map((e) => e.name).sort()).toEqual(file.employers.map((e) => maskName(e.name)).sort());
    for (const address of file.reportedAddresses) {
      // Sandbox lines are `number name type`: the type is the last word, and a USPS suffix.
      const words = address.street.split(' ');
      expect(isUspsSuffix(words.at(-1) ?? ''), address.street).toBe(true);
      expectMaskedStreet(address.street, maskStreet(address.street), words.length - 1);
    }
  });

  it('masks the way a bank does', () => {
    expect(maskStreet('1234 Maple Street')).toBe('1••• M•••• Street');
    expect(maskStreet('77 Sunset Trail Loop')).toBe('7• S••••• T•••• Loop');
    expect(maskStreet('9 Court Park Way')).toBe('9 C•••• P••• Way');
    expect(maskStreet('12 Court St Apt 4')).toBe('1• C•••• St A•• 4');
    expect(maskStreet('77 North Oak Ave')).toBe('7• N•••• O•• Ave');
    expect(maskStreet('12 Court St.')).toBe('1• C•••• St.');
    expect(maskStreet('500 Elm Rd Apt 4B')).toBe('5•• E•• Rd A•• 4•');
    expect(maskStreet('PO Box 99')).toBe('P• B•• 9•');
    expect(maskName('Contoso Ltd')).toBe('C•••••• L••');
    expect(maskName('Fabrikam Health')).toBe('F••••••• H•••••');
  });

  it('leaves only the final street type readable, over many streets whose names are street types too', () => {
    const rng = new SeededRandom('street-masking-oracle');
    const suffixForms = USPS_SUFFIXES.flatMap(([name, abbreviation]) => [
      titleCase(name),
      titleCase(abbreviation),
      `${titleCase(abbreviation)}.`,
      name,
    ]);
    for (let n = 0; n < 2000; n++) {
      const houseNumber = String(rng.int(1, 99999));
      const directional = rng.next() < 0.25 ? [rng.pick(DIRECTIONALS)] : [];
      const name = Array.from({ length: rng.int(1, 3) }, () => rng.pick(NAME_WORDS));
      const type = rng.pick(suffixForms);
      const unit = rng.next() < 0.3 ? rng.pick(UNITS) : [];
      const words = [houseNumber, ...directional, ...name, type, ...unit];
      const street = words.join(' ');
      const masked = maskStreet(street);
      expectMaskedStreet(street, masked, 1 + directional.length + name.length);
      expect(masked.split(' ')[0], street).toBe(houseNumber[0] + '•'.repeat(houseNumber.length - 1));
    }
  });

  it('counts a closed card’s balance as still owed in both balances, and its line in neither', () => {
    const asOf = new Date(READ_DAY);
    const file = generateCreditFile(sandboxSubject(), asOf);
    const card = file.tradelines.find((t) => t.kind === 'credit_card' && t.closedOn === null && t.balance > 0);
    if (!card) throw new Error('no open card with a balance');
    const closedOn = '2026-11-01';
    const closed = {
      ...file,
      tradelines: file.tradelines.map((t) => (t === card ? { ...t, status: 'closed' as const, closedOn } : t)),
    };
    const before = creditReportOf('usr_closedCard000001', { file, asOf }).summary;
    const after = creditReportOf('usr_closedCard000001', { file: closed, asOf }).summary;
    expect(after).toMatchObject({
      openAccounts: before.openAccounts - 1,
      totalBalance: before.totalBalance,
      cardBalance: before.cardBalance,
      totalCreditLimit: before.totalCreditLimit - card.limitOrAmount,
    });
    expect(after.totalBalance).toBeGreaterThanOrEqual(after.cardBalance);
  });

  it('never pulls: every read is served from the file on record', async () => {
    const userId = await enrolActiveUser(app, await tok(), IDENTITIES[1]);
    const pulls = counting.creditPullsOf(userId);
    const total = counting.total();
    const audited = await auditedPulls(userId);
    const first = await report(userId);
    for (let i = 0; i < 5; i++) expect(await report(userId)).toEqual(first);
    app.ctx.readCache.invalidate([userTag(userId)]);
    expect(await report(userId)).toEqual(first);
    expect(counting.creditPullsOf(userId)).toBe(pulls);
    expect(counting.total()).toBe(total);
    expect(await auditedPulls(userId)).toBe(audited);
  });

  it('reads a file stored before the report’s fields existed', async () => {
    const userId = await enrolActiveUser(app, await tok(), IDENTITIES[3]);
    const file = await fileOnRecord(userId);
    const old = {
      ...file,
      tradelines: file.tradelines.map(({ status, monthlyPayment, apr, termMonths, paymentHistory, ...rest }) => rest),
      collections: undefined,
      publicRecords: undefined,
      softInquiries: undefined,
      names: undefined,
      yearOfBirth: undefined,
      employers: undefined,
    };
    await app.db.query('update credit_snapshots set file_enc = $2 where user_id = $1', [
      userId,
      sealCreditFile(app.ctx, userId, old as unknown as CreditFile),
    ]);
    app.ctx.readCache.invalidate([userTag(userId)]);
    const data = await report(userId);
    expect(data.accounts).toHaveLength(file.tradelines.length);
    for (const account of data.accounts) {
      expect(account.status).toBe(account.closedOn === null ? 'open' : account.type === 'credit_card' ? 'closed' : 'paid_off');
      expect(account).toMatchObject({ monthlyPayment: null, apr: null, termMonths: null });
      expect(new Set(account.paymentHistory.map((m) => m.status))).toEqual(new Set(['no_data']));
    }
    expect(data.publicRecords).toEqual([]);
    expect(data.personalInformation).toMatchObject({ names: [], yearOfBirth: null, employers: [] });
    expect(data.inquiries.every((i) => i.kind === 'hard')).toBe(true);
    expect((await scoreOf(userId)).factors).toHaveLength(5);
  });
});

describe('the file on record at rest', () => {
  it('is stored deflated and sealed, under half its JSON, bound to its user', async () => {
    const userId = await enrolActiveUser(app, await tok(), IDENTITIES[4]);
    const { rows } = await app.db.query<{ file_enc: string }>('select file_enc from credit_snapshots where user_id = $1', [
      userId,
    ]);
    const stored = rows[0] as { file_enc: string };
    const file = openCreditFile(app.ctx, userId, stored.file_enc);
    expect(stored.file_enc.startsWith('v2.')).toBe(true);
    // Base64 of the sealed bytes is under half the JSON's length: the row stays out of TOAST.
    expect(stored.file_enc.length).toBeLessThan(JSON.stringify(file).length / 2);
    expect(() => openCreditFile(app.ctx, 'usr_someone_else', stored.file_enc)).toThrow();
    // Its format is sealed with it: relabelled v1, the value fails to decrypt rather than being misread.
    expect(() => openCreditFile(app.ctx, userId, stored.file_enc.replace(/^v2\./, 'v1.'))).toThrow();
    expect((await report(userId)).accounts).toHaveLength(file.tradelines.length);
  });

  it('seals v1 with SEAL_FILES_DEFLATED=false, for a rolling upgrade from a release that reads only v1', () => {
    const v1Only = new DataCipher([Buffer.alloc(32, 7)], { deflate: false });
    const sealed = v1Only.encryptCompressed('{"bureau":"equifax"}', 'credit_files:usr_x');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(v1Only.decrypt(sealed, 'credit_files:usr_x')).toBe('{"bureau":"equifax"}');
  });

  it('reads a file sealed uncompressed (format v1) as before', async () => {
    const userId = await enrolActiveUser(app, await tok(), IDENTITIES[5]);
    const file = await fileOnRecord(userId);
    const v1 = app.ctx.cipher.encrypt(JSON.stringify(file), `credit_files:${userId}`);
    expect(v1.startsWith('v1.')).toBe(true);
    await app.db.query('update credit_snapshots set file_enc = $2 where user_id = $1', [userId, v1]);
    app.ctx.readCache.invalidate([userTag(userId)]);
    const data = await report(userId);
    const byBalance = (a: number, b: number) => a - b;
    expect(data.accounts.map((a) => a.balance).sort(byBalance)).toEqual(file.tradelines.map((t) => t.balance).sort(byBalance));
  });
});

describe('who may read a credit report', () => {
  it('refuses without consent (403 CONSENT_REQUIRED), for a frozen file (403 CREDIT_FROZEN), and before verification', async () => {
    const userId = await enrolActiveUser(app, await tok(), IDENTITIES[2]);
    expect((await reportOf(userId)).status).toBe(200);
    const withdrawn = await app.request('POST', `/v1/users/${userId}/consent/withdraw`, { token: await tok() });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    const refused = await reportOf(userId);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('CONSENT_REQUIRED');

    const frozen = await enrolActiveUser(app, await tok(), { ssn: '0000' });
    const cold = await reportOf(frozen);
    expect(cold.status).toBe(403);
    expect(cold.body.error?.code).toBe('CREDIT_FROZEN');

    const pending = await enrolUser(app, await tok());
    expect((await reportOf(pending)).body.error?.code).toBe('USER_NOT_ENROLLED');
  });

  it('hides another client’s user (404), and lets a user token read its own report only', async () => {
    const userId = await enrolActiveUser(app, await tok(), { externalUserId: 'report-own-1' });
    const other = await enrolActiveUser(app, await tok());
    const stranger = await app.token(await app.createClient());
    expect((await reportOf(userId, stranger)).status).toBe(404);
    expect((await reportOf('usr_doesNotExist123')).status).toBe(404);

    const userToken = await app.userToken(await tok(), 'report-own-1');
    const own = await reportOf(userId, userToken);
    expect(own.status).toBe(200);
    expect(own.body.data.userId).toBe(userId);
    const theirs = await reportOf(other, userToken);
    expect(theirs.status).toBe(404);
    const noRead = await app.token(client, 'offers');
    expect((await reportOf(userId, noRead)).body.error?.code).toBe('AUTHORIZATION_ERROR');
  });

  it('is audited as a credit-data read', async () => {
    const userId = await enrolActiveUser(app, await tok());
    await report(userId);
    expect(await auditEntriesOf(app, 'credit_data.read', userId, 'getCreditReport')).toBe(1);
  });
});

describe('alerts name accounts of the report', () => {
  it('a new_account alert from monitoring names an account of the next report', async () => {
    const userId = await enrolActiveUser(app, await tok(), { ...IDENTITIES[5], externalUserId: 'report-alerts-1' });
    await runMonitoringUntilIdle(app.ctx);
    const started = app.clock.now();
    try {
      const seen = new Set<string>();
      for (let month = 1; month <= 12; month++) {
        app.clock.advance(30 * DAY);
        await runMonitoringUntilIdle(app.ctx);
        const alerts = (await app.request('GET', `/v1/users/${userId}/alerts?limit=100`, { token: await tok() })).body.data as {
          type: string;
          data: { accountId?: string };
        }[];
        const accountAlerts = alerts.filter((a) => ['new_account', 'account_closed', 'late_payment'].includes(a.type));
        const accounts = new Set((await report(userId)).accounts.map((a) => a.accountId));
        for (const alert of accountAlerts) {
          expect(alert.data.accountId, alert.type).toMatch(/^acc_/);
          expect(accounts.has(alert.data.accountId as string), `${alert.type} ${alert.data.accountId}`).toBe(true);
          seen.add(alert.type);
        }
        if (seen.has('new_account')) break;
      }
      expect(seen.has('new_account')).toBe(true);
    } finally {
      app.clock.set(started);
    }
  });

  it('a sandbox account alert names an account of the report', async () => {
    const userId = await enrolActiveUser(app, await tok(), IDENTITIES[0]);
    const accounts = new Set((await report(userId)).accounts.map((a) => a.accountId));
    for (const type of ['new_account', 'account_closed', 'late_payment']) {
      const res = await app.request('POST', `/v1/sandbox/users/${userId}/alerts`, { token: await tok(), body: { type } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(accounts.has(res.body.data.data.accountId), type).toBe(true);
    }
  });
});

/** The file on record as stored, opened the way the service opens it. */
const fileOnRecord = async (userId: string): Promise<CreditFile> => {
  const { rows } = await app.db.query<{ file_enc: string }>('select file_enc from credit_snapshots where user_id = $1', [userId]);
  return openCreditFile(app.ctx, userId, rows[0]?.file_enc as string);
};

const auditedPulls = (userId: string) => auditEntriesOf(app, 'bureau.pull', userId);
