import type { TSandboxClock } from '@credit/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { formatInstant } from '../format.ts';
import { useConsole } from '../services.tsx';
import { Outcome } from '../ui/Outcome.tsx';
import { Pager } from '../ui/Pager.tsx';
import { ScrollRegion } from '../ui/ScrollRegion.tsx';
import { ErrorState, Loading } from '../ui/States.tsx';

const PATH = '/console/sandbox';
const CLOCKS_KEY = ['listSandboxClocks'] as const;

/** The sandbox bureau's magic ssns (last four digits at enrolment), as docs/partner/credit-data.md tells them. */
const STORIES = [
  { ssn: '0000', story: 'A frozen file: the score, the report and offers answer CREDIT_FROZEN.' },
  { ssn: '9999', story: 'Identity verification always fails.' },
  { ssn: '1001', story: 'Every alert type within any twelve monthly refreshes.' },
  { ssn: '1002', story: 'Nothing ever changes: no alert, ever.' },
  { ssn: '1003', story: 'A fraud alert on the file from the start.' },
  { ssn: '1004', story: 'A good score on costly credit: refinance offers show savings.' },
  { ssn: 'any other', story: 'An ordinary synthetic file that evolves month by month.' },
] as const;

/** The clock's time moved by whole calendar months (a year is twelve). */
const monthsLater = (iso: string, months: number): string => {
  const date = new Date(iso);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString();
};

const USER_ID = /^usr_[A-Za-z0-9]{1,40}$/;

const Attach = ({ clock }: { clock: TSandboxClock }) => {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [ids, setIds] = useState('');
  const [problem, setProblem] = useState<string>();
  const problemId = useId();
  const attach = useMutation({
    mutationFn: (userIds: string[]) =>
      api.call('attachSandboxClockUsers', { params: { clockId: clock.clockId }, body: { userIds } }),
    onSuccess: () => {
      setIds('');
      return queryClient.invalidateQueries({ queryKey: CLOCKS_KEY });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const userIds = ids.split(/[\s,]+/).filter(Boolean);
    const bad = userIds.find((id) => !USER_ID.test(id));
    setProblem(
      userIds.length === 0
        ? 'Enter at least one customer id.'
        : bad
          ? `${bad} is not one of our customer ids (usr_…): find it on the Customers page.`
          : undefined,
    );
    if (userIds.length && !bad) attach.mutate(userIds);
  };
  return (
    <form className="action" onSubmit={submit} noValidate>
      <label>
        Customers to attach (usr_… ids, commas)
        <input
          value={ids}
          onChange={(e) => setIds(e.target.value)}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={problem ? problemId : undefined}
        />
      </label>
      <button type="submit" className="button" disabled={attach.isPending}>
        Attach
      </button>
      {problem ? (
        <p id={problemId} className="field-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <Outcome mutation={attach} success={attach.data ? `${attach.data.userCount} customers on this clock now.` : undefined} />
    </form>
  );
};

const Advance = ({ clock }: { clock: TSandboxClock }) => {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const advance = useMutation({
    mutationFn: (months: number) =>
      api.call('advanceSandboxClock', {
        params: { clockId: clock.clockId },
        body: { frozenTime: monthsLater(clock.frozenTime, months) },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: CLOCKS_KEY }),
  });
  const busy = advance.isPending || clock.status === 'advancing';
  return (
    <div className="action">
      <button type="button" className="button" onClick={() => advance.mutate(1)} disabled={busy}>
        Advance a month
      </button>
      <button type="button" className="button" onClick={() => advance.mutate(12)} disabled={busy}>
        Advance a year
      </button>
      <Outcome
        mutation={advance}
        success={
          advance.isSuccess ? 'Advancing: monitoring runs for every month passed; the clock says when it is ready.' : undefined
        }
      />
    </div>
  );
};

const ClockCard = ({ clock }: { clock: TSandboxClock }) => {
  const { may } = useConsole();
  const headingId = useId();
  return (
    <article className="card" aria-labelledby={headingId}>
      <div className="card-head">
        <h2 id={headingId}>{clock.name ?? clock.clockId}</h2>
        <span className={`badge ${clock.status === 'ready' ? 'badge-ok' : 'badge-warn'}`}>{clock.status}</span>
      </div>
      <dl className="facts">
        <div>
          <dt>Clock time</dt>
          <dd>{formatInstant(clock.frozenTime)}</dd>
        </div>
        <div>
          <dt>Customers</dt>
          <dd>{clock.userCount}</dd>
        </div>
        <div>
          <dt>Id</dt>
          <dd className="mono">{clock.clockId}</dd>
        </div>
      </dl>
      {may('advanceSandboxClock') ? (
        <div className="actions">
          <Attach clock={clock} />
          <Advance clock={clock} />
        </div>
      ) : null}
    </article>
  );
};

const CreateClock = () => {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => api.call('createSandboxClock', { body: name.trim() ? { name: name.trim() } : {} }),
    onSuccess: () => {
      setName('');
      return queryClient.invalidateQueries({ queryKey: CLOCKS_KEY });
    },
  });
  return (
    <form
      className="filters"
      aria-label="New test clock"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <label>
        New clock’s name
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
      </label>
      <button type="submit" className="button" disabled={create.isPending}>
        Create a test clock
      </button>
      <Outcome mutation={create} success={create.data ? `Created ${create.data.clockId}, starting now.` : undefined} />
    </form>
  );
};

/** Sandbox only: test clocks (months of monitoring in seconds) and the story ssns that choose a test file. */
export const SandboxPage = ({ query }: { query: URLSearchParams }) => {
  const { api, may, session } = useConsole();
  const cursor = query.get('cursor') ?? undefined;
  const clocks = useQuery({
    queryKey: [...CLOCKS_KEY, cursor],
    queryFn: () => api.call('listSandboxClocks', { query: { limit: 20, ...(cursor ? { cursor } : {}) } }),
    enabled: session.environment === 'sandbox',
    // A clock that is advancing says so until it is ready: the page looks again every two seconds meanwhile.
    refetchInterval: (q) => (q.state.data?.data.some((c) => c.status === 'advancing') ? 2000 : false),
  });
  if (session.environment !== 'sandbox') {
    return (
      <>
        <div className="page-head">
          <h1 tabIndex={-1}>Sandbox</h1>
        </div>
        <p>This is a production client: test clocks and story files exist in your sandbox only.</p>
      </>
    );
  }
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>Sandbox</h1>
        <p className="lede">Test clocks move customers through months of monitoring in seconds; story ssns pick a test file.</p>
      </div>
      {may('createSandboxClock') ? <CreateClock /> : null}
      {clocks.isPending ? (
        <Loading what="your test clocks" />
      ) : clocks.isError ? (
        <>
          <ErrorState error={clocks.error} retry={() => void clocks.refetch()} />
          <Pager path={PATH} query={query} nextCursor={null} label="Clock pages" />
        </>
      ) : clocks.data.data.length === 0 ? (
        <>
          <p>No test clock yet{may('createSandboxClock') ? ': create one above.' : '.'}</p>
          <Pager path={PATH} query={query} nextCursor={null} label="Clock pages" />
        </>
      ) : (
        <>
          <div className="cards">
            {clocks.data.data.map((clock) => (
              <ClockCard key={clock.clockId} clock={clock} />
            ))}
          </div>
          <Pager path={PATH} query={query} nextCursor={clocks.data.pagination.nextCursor} label="Clock pages" />
        </>
      )}
      <section className="card" aria-labelledby="stories-heading">
        <h2 id="stories-heading">Story ssns</h2>
        <ScrollRegion labelledBy="stories-caption">
          <table className="data-table">
            <caption id="stories-caption">Last four digits of the ssn at enrolment, and the file each gives</caption>
            <thead>
              <tr>
                <th scope="col">Last four</th>
                <th scope="col">The file</th>
              </tr>
            </thead>
            <tbody>
              {STORIES.map((s) => (
                <tr key={s.ssn}>
                  <th scope="row">{s.ssn}</th>
                  <td>{s.story}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </section>
    </>
  );
};
