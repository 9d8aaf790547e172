import type { TProgramResults } from '@credit/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { downloadCsv, toCsv } from '../csv.ts';
import { addDays, daysBetween, formatCount, formatDay, formatUsd, isoDay } from '../format.ts';
import { hrefWith, navigate } from '../router.tsx';
import { useConsole } from '../services.tsx';
import { ScrollRegion } from '../ui/ScrollRegion.tsx';
import { ErrorState, Loading } from '../ui/States.tsx';

const INTERVALS = ['day', 'week', 'month'] as const;
type Interval = (typeof INTERVALS)[number];
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const MAX_SPAN_DAYS = 365;

/** The measures the chart draws and the table lists, in the funnel's order. */
const MEASURES = [
  { key: 'enrolled', label: 'Enrolled', color: '#1f5fbf' },
  { key: 'looked', label: 'Looking', color: '#0f7d6b' },
  { key: 'clicks', label: 'Clicks', color: '#a34f00' },
  { key: 'applications', label: 'Applications', color: '#7a3fb8' },
  { key: 'funded', label: 'Funded', color: '#b0174a' },
] as const;

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

const rangeProblem = ({ from, to }: Range): string | undefined => {
  if (!DAY_PATTERN.test(from) || !DAY_PATTERN.test(to)) return 'Enter both dates.';
  if (daysBetween(from, to) < 0) return 'The first day must not be after the last.';
  if (daysBetween(from, to) > MAX_SPAN_DAYS) return 'A range spans at most 366 days: move the first day later.';
  return undefined;
};

const periodLabel = (interval: Interval, start: string) =>
  interval === 'month' ? start.slice(0, 7) : interval === 'week' ? `Week of ${formatDay(start)}` : formatDay(start);

const exportCsv = (results: TProgramResults) => {
  const header = ['period_start', ...MEASURES.map((m) => m.key), 'approvals', 'declines', 'funded_amount_usd'];
  const rows = results.series.map((p) => [p.start, ...MEASURES.map((m) => p[m.key]), p.approvals, p.declines, p.fundedAmount]);
  const t = results.totals;
  rows.push(['total', ...MEASURES.map((m) => t[m.key]), t.approvals, t.declines, t.fundedAmount]);
  downloadCsv(`program-results-${results.from}-to-${results.to}-by-${results.interval}.csv`, toCsv(header, rows));
};

const RangeForm = ({ range }: { range: Range }) => {
  const [draft, setDraft] = useState(range);
  const [problem, setProblem] = useState<string>();
  const problemId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = rangeProblem(draft);
    setProblem(found);
    if (!found) navigate(hrefWith('/console/program', { from: draft.from, to: draft.to, interval: draft.interval }));
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Date range" noValidate>
      <label>
        From
        <input
          type="date"
          value={draft.from}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          aria-describedby={problem ? problemId : undefined}
          required
        />
      </label>
      <label>
        To
        <input
          type="date"
          value={draft.to}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          aria-describedby={problem ? problemId : undefined}
          required
        />
      </label>
      <label>
        Group by
        <select value={draft.interval} onChange={(e) => setDraft({ ...draft, interval: e.target.value as Interval })}>
          {INTERVALS.map((i) => (
            <option key={i} value={i}>
              {i}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button">
        Show
      </button>
      {problem ? (
        <p id={problemId} className="field-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
};

const Chart = ({ results }: { results: TProgramResults }) => (
  <figure className="chart" aria-labelledby="program-chart-caption">
    <div
      className="chart-area"
      role="img"
      aria-label={`Line chart of ${MEASURES.map((m) => m.label.toLowerCase()).join(', ')} by ${results.interval}; the table lists the same numbers.`}
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={results.series} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid stroke="#d9dce3" strokeDasharray="3 3" />
          <XAxis dataKey="start" tick={{ fontSize: 12 }} minTickGap={24} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={40} />
          <Tooltip />
          <Legend />
          {MEASURES.map((m) => (
            <Line
              key={m.key}
              type="monotone"
              dataKey={m.key}
              name={m.label}
              stroke={m.color}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
    <figcaption id="program-chart-caption">
      {formatDay(results.from)} to {formatDay(results.to)}, by {results.interval}
    </figcaption>
  </figure>
);

/** The range's totals at a glance, above the chart and its table. */
const Totals = ({ results }: { results: TProgramResults }) => (
  <dl className="totals">
    {MEASURES.map((m) => (
      <div key={m.key}>
        <dt>{m.label}</dt>
        <dd>{formatCount(results.totals[m.key])}</dd>
      </div>
    ))}
    <div>
      <dt>Funded amount</dt>
      <dd>{formatUsd(results.totals.fundedAmount)}</dd>
    </div>
  </dl>
);

const ResultsTable = ({ results }: { results: TProgramResults }) => (
  <ScrollRegion labelledBy="program-table-caption">
    <table className="data-table">
      <caption id="program-table-caption">Results by {results.interval}</caption>
      <thead>
        <tr>
          <th scope="col">Period</th>
          {MEASURES.map((m) => (
            <th key={m.key} scope="col" className="number">
              {m.label}
            </th>
          ))}
          <th scope="col" className="number">
            Funded amount
          </th>
        </tr>
      </thead>
      <tbody>
        {results.series.map((period) => (
          <tr key={period.start}>
            <th scope="row">{periodLabel(results.interval, period.start)}</th>
            {MEASURES.map((m) => (
              <td key={m.key} className="number">
                {formatCount(period[m.key])}
              </td>
            ))}
            <td className="number">{formatUsd(period.fundedAmount)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          {MEASURES.map((m) => (
            <td key={m.key} className="number" data-measure={m.key}>
              {formatCount(results.totals[m.key])}
            </td>
          ))}
          <td className="number" data-measure="fundedAmount">
            {formatUsd(results.totals.fundedAmount)}
          </td>
        </tr>
      </tfoot>
    </table>
  </ScrollRegion>
);

const OffersTable = ({ results }: { results: TProgramResults }) =>
  results.offers.length === 0 ? (
    <p>No offer was seen in this range.</p>
  ) : (
    <ScrollRegion labelledBy="program-offers-caption">
      <table className="data-table">
        <caption id="program-offers-caption">By offer</caption>
        <thead>
          <tr>
            <th scope="col">Offer</th>
            <th scope="col" className="number">
              Impressions
            </th>
            <th scope="col" className="number">
              Clicks
            </th>
            <th scope="col" className="number">
              Applications
            </th>
            <th scope="col" className="number">
              Funded
            </th>
            <th scope="col" className="number">
              Funded amount
            </th>
          </tr>
        </thead>
        <tbody>
          {results.offers.map((offer) => (
            <tr key={offer.offerId}>
              <th scope="row">{offer.name}</th>
              <td className="number">{formatCount(offer.impressions)}</td>
              <td className="number">{formatCount(offer.clicks)}</td>
              <td className="number">{formatCount(offer.applications)}</td>
              <td className="number">{formatCount(offer.funded)}</td>
              <td className="number">{formatUsd(offer.fundedAmount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );

/** The offers program's results over a date range (in the address): a chart with its table, and a CSV export. */
export const ProgramPage = ({ query }: { query: URLSearchParams }) => {
  const { api } = useConsole();
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
        <h1 tabIndex={-1}>Program</h1>
        <p className="lede">
          What your offers program yields: customers enrolled, looking at their score, clicking, applying and funded.
        </p>
      </div>
      <RangeForm key={`${range.from}/${range.to}/${range.interval}`} range={range} />
      {problem ? (
        <p className="state state-error" role="alert">
          {problem}
        </p>
      ) : results.isPending ? (
        <Loading what="the program’s results" />
      ) : results.isError ? (
        <ErrorState error={results.error} retry={() => void results.refetch()} />
      ) : (
        <>
          <div className="toolbar">
            <Totals results={results.data} />
            <button type="button" className="button" onClick={() => exportCsv(results.data)}>
              Export to CSV
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
