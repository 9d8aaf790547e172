import type { TProgramResults } from '@credit/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useId, useState } from 'react';
import { downloadCsv, toCsv } from '../csv.ts';
import { addDays, daysBetween, isoDay } from '../format.ts';
import { type Formats, useFormat, useMessages } from '../i18n.tsx';
import { hrefWith, navigate } from '../router.tsx';
import { useConsole } from '../services.tsx';
import { ScrollRegion } from '../ui/ScrollRegion.tsx';
import { ErrorState, Loading } from '../ui/States.tsx';
import type { ChartLine } from './ProgramChart.tsx';
import { type ProgramMessages, programMessages } from './program-messages.ts';

const INTERVALS = ['day', 'week', 'month'] as const;
type Interval = (typeof INTERVALS)[number];
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const MAX_SPAN_DAYS = 365;

/** The measures the chart draws and the table lists, in the funnel's order. */
const MEASURES = [
  { key: 'enrolled', color: '#1f5fbf' },
  { key: 'looked', color: '#0f7d6b' },
  { key: 'clicks', color: '#a34f00' },
  { key: 'applications', color: '#7a3fb8' },
  { key: 'funded', color: '#b0174a' },
] as const;

/** A chunk that does not load (a deploy replaced it, the network dropped) leaves the table, which has the numbers. */
const ChartUnavailable = () => {
  const t = useMessages(programMessages);
  return <p className="muted">{t.chartUnavailable}</p>;
};
const ProgramChart = lazy(() => import('./ProgramChart.tsx').catch(() => ({ default: ChartUnavailable })));

interface Range {
  from: string;
  to: string;
  interval: Interval;
}

/** The range in the address, or the last 30 days by day. */
const rangeOf = (query: URLSearchParams): Range => {
  const today = isoDay(new Date());
  const to = DAY_PATTERN.test(query.get('to') ?? '') ? (query.get('to') as string) : today;
  const from = DAY_PATTERN.test(query.get('from') ?? '') ? (query.get('from') as string) : addDays(to, -29);
  const asked = query.get('interval');
  const interval = (INTERVALS as readonly string[]).includes(asked ?? '') ? (asked as Interval) : 'day';
  return { from, to, interval };
};

type RangeProblem = 'enterBoth' | 'backwards' | 'tooLong';

const rangeProblem = ({ from, to }: Range): RangeProblem | undefined => {
  if (!DAY_PATTERN.test(from) || !DAY_PATTERN.test(to)) return 'enterBoth';
  if (daysBetween(from, to) < 0) return 'backwards';
  if (daysBetween(from, to) > MAX_SPAN_DAYS) return 'tooLong';
  return undefined;
};

const periodLabel = (interval: Interval, start: string, t: ProgramMessages, f: Formats) =>
  interval === 'month' ? f.month(start) : interval === 'week' ? t.weekOf(f.day(start)) : f.day(start);

/** The file a spreadsheet reads: its columns are the API's names in either language, so a macro keeps working. */
const exportCsv = (results: TProgramResults) => {
  const header = ['period_start', ...MEASURES.map((m) => m.key), 'approvals', 'declines', 'funded_amount_usd'];
  const rows = results.series.map((p) => [p.start, ...MEASURES.map((m) => p[m.key]), p.approvals, p.declines, p.fundedAmount]);
  const t = results.totals;
  rows.push(['total', ...MEASURES.map((m) => t[m.key]), t.approvals, t.declines, t.fundedAmount]);
  downloadCsv(`program-results-${results.from}-to-${results.to}-by-${results.interval}.csv`, toCsv(header, rows));
};

const RangeForm = ({ range }: { range: Range }) => {
  const t = useMessages(programMessages);
  const [draft, setDraft] = useState(range);
  const [problem, setProblem] = useState<RangeProblem>();
  const problemId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = rangeProblem(draft);
    setProblem(found);
    if (!found) navigate(hrefWith('/console/program', { from: draft.from, to: draft.to, interval: draft.interval }));
  };
  return (
    <form className="filters" onSubmit={submit} aria-label={t.rangeLabel} noValidate>
      <label>
        {t.from}
        <input
          type="date"
          value={draft.from}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          aria-describedby={problem ? problemId : undefined}
          required
        />
      </label>
      <label>
        {t.to}
        <input
          type="date"
          value={draft.to}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          aria-describedby={problem ? problemId : undefined}
          required
        />
      </label>
      <label>
        {t.groupBy}
        <select value={draft.interval} onChange={(e) => setDraft({ ...draft, interval: e.target.value as Interval })}>
          {INTERVALS.map((i) => (
            <option key={i} value={i}>
              {t.intervals[i]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button">
        {t.show}
      </button>
      {problem ? (
        <p id={problemId} className="field-problem" role="alert">
          {t[problem]}
        </p>
      ) : null}
    </form>
  );
};

const Chart = ({ results }: { results: TProgramResults }) => {
  const t = useMessages(programMessages);
  const f = useFormat();
  const lines: ChartLine[] = MEASURES.map((m) => ({ ...m, label: t.measures[m.key] }));
  const interval = t.intervals[results.interval];
  return (
    <figure className="chart" aria-labelledby="program-chart-caption">
      <div
        className="chart-area"
        role="img"
        aria-label={t.chartLabel(lines.map((m) => m.label.toLowerCase()).join(', '), interval)}
      >
        <Suspense fallback={<p className="muted">{t.loadingChart}</p>}>
          <ProgramChart results={results} lines={lines} />
        </Suspense>
      </div>
      <figcaption id="program-chart-caption">{t.chartCaption(f.day(results.from), f.day(results.to), interval)}</figcaption>
    </figure>
  );
};

/** The range's totals at a glance, above the chart and its table. */
const Totals = ({ results }: { results: TProgramResults }) => {
  const t = useMessages(programMessages);
  const f = useFormat();
  return (
    <dl className="totals">
      {MEASURES.map((m) => (
        <div key={m.key}>
          <dt>{t.measures[m.key]}</dt>
          <dd>{f.count(results.totals[m.key])}</dd>
        </div>
      ))}
      <div>
        <dt>{t.fundedAmount}</dt>
        <dd>{f.usd(results.totals.fundedAmount)}</dd>
      </div>
    </dl>
  );
};

const ResultsTable = ({ results }: { results: TProgramResults }) => {
  const t = useMessages(programMessages);
  const f = useFormat();
  return (
    <ScrollRegion labelledBy="program-table-caption">
      <table className="data-table">
        <caption id="program-table-caption">{t.resultsBy(t.intervals[results.interval])}</caption>
        <thead>
          <tr>
            <th scope="col">{t.period}</th>
            {MEASURES.map((m) => (
              <th key={m.key} scope="col" className="number">
                {t.measures[m.key]}
              </th>
            ))}
            <th scope="col" className="number">
              {t.fundedAmount}
            </th>
          </tr>
        </thead>
        <tbody>
          {results.series.map((period) => (
            <tr key={period.start}>
              <th scope="row">{periodLabel(results.interval, period.start, t, f)}</th>
              {MEASURES.map((m) => (
                <td key={m.key} className="number">
                  {f.count(period[m.key])}
                </td>
              ))}
              <td className="number">{f.usd(period.fundedAmount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t.total}</th>
            {MEASURES.map((m) => (
              <td key={m.key} className="number" data-measure={m.key}>
                {f.count(results.totals[m.key])}
              </td>
            ))}
            <td className="number" data-measure="fundedAmount">
              {f.usd(results.totals.fundedAmount)}
            </td>
          </tr>
        </tfoot>
      </table>
    </ScrollRegion>
  );
};

const OffersTable = ({ results }: { results: TProgramResults }) => {
  const t = useMessages(programMessages);
  const f = useFormat();
  if (results.offers.length === 0) return <p>{t.noOffer}</p>;
  return (
    <ScrollRegion labelledBy="program-offers-caption">
      <table className="data-table">
        <caption id="program-offers-caption">{t.byOffer}</caption>
        <thead>
          <tr>
            <th scope="col">{t.offer}</th>
            <th scope="col" className="number">
              {t.impressions}
            </th>
            <th scope="col" className="number">
              {t.measures.clicks}
            </th>
            <th scope="col" className="number">
              {t.measures.applications}
            </th>
            <th scope="col" className="number">
              {t.measures.funded}
            </th>
            <th scope="col" className="number">
              {t.fundedAmount}
            </th>
          </tr>
        </thead>
        <tbody>
          {results.offers.map((offer) => (
            <tr key={offer.offerId}>
              <th scope="row">{offer.name}</th>
              <td className="number">{f.count(offer.impressions)}</td>
              <td className="number">{f.count(offer.clicks)}</td>
              <td className="number">{f.count(offer.applications)}</td>
              <td className="number">{f.count(offer.funded)}</td>
              <td className="number">{f.usd(offer.fundedAmount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
};

/** The offers program's results over a date range (in the address): a chart with its table, and a CSV export. */
export const ProgramPage = ({ query }: { query: URLSearchParams }) => {
  const { api } = useConsole();
  const t = useMessages(programMessages);
  const range = rangeOf(query);
  const problem = rangeProblem(range);
  const results = useQuery({
    queryKey: ['getProgramResults', range.from, range.to, range.interval],
    queryFn: () => api.call('getProgramResults', { query: range }),
    enabled: !problem,
  });
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>{t.title}</h1>
        <p className="lede">{t.lede}</p>
      </div>
      <RangeForm key={`${range.from}/${range.to}/${range.interval}`} range={range} />
      {problem ? (
        <p className="state state-error" role="alert">
          {t[problem]}
        </p>
      ) : results.isPending ? (
        <Loading what={t.loading} />
      ) : results.isError ? (
        <ErrorState error={results.error} retry={() => void results.refetch()} />
      ) : (
        <>
          <div className="toolbar">
            <Totals results={results.data} />
            <button type="button" className="button" onClick={() => exportCsv(results.data)}>
              {t.exportCsv}
            </button>
          </div>
          <div className="program-grid">
            <Chart results={results.data} />
            <ResultsTable results={results.data} />
          </div>
          <OffersTable results={results.data} />
        </>
      )}
    </>
  );
};
