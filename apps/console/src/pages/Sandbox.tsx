import type { TSandboxClock } from '@credit/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useFormat, useMessages } from '../i18n.tsx';
import { useConsole } from '../services.tsx';
import { Outcome } from '../ui/Outcome.tsx';
import { Pager } from '../ui/Pager.tsx';
import { ScrollRegion } from '../ui/ScrollRegion.tsx';
import { ErrorState, Loading } from '../ui/States.tsx';
import { sandboxMessages } from './sandbox-messages.ts';

const PATH = '/console/sandbox';
const CLOCKS_KEY = ['listSandboxClocks'] as const;

/** The sandbox bureau's magic ssns (last four digits at enrolment), as docs/partner/credit-data.md tells them. */
const STORIES = ['0000', '9999', '1001', '1002', '1003', '1004', 'other'] as const;

/** The clock's time moved by whole calendar months (a year is twelve). */
const monthsLater = (iso: string, months: number): string => {
  const date = new Date(iso);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString();
};

const USER_ID = /^usr_[A-Za-z0-9]{1,40}$/;

const Attach = ({ clock }: { clock: TSandboxClock }) => {
  const { api } = useConsole();
  const t = useMessages(sandboxMessages);
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
    setProblem(userIds.length === 0 ? t.attachNone : bad ? t.attachBad(bad) : undefined);
    if (userIds.length && !bad) attach.mutate(userIds);
  };
  return (
    <form className="action" onSubmit={submit} noValidate>
      <label>
        {t.attachLabel}
        <input
          value={ids}
          onChange={(e) => setIds(e.target.value)}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={problem ? problemId : undefined}
        />
      </label>
      <button type="submit" className="button" disabled={attach.isPending}>
        {t.attach}
      </button>
      {problem ? (
        <p id={problemId} className="field-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <Outcome mutation={attach} success={attach.data ? t.attached(attach.data.userCount) : undefined} />
    </form>
  );
};

const Advance = ({ clock }: { clock: TSandboxClock }) => {
  const { api } = useConsole();
  const t = useMessages(sandboxMessages);
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
        {t.advanceMonth}
      </button>
      <button type="button" className="button" onClick={() => advance.mutate(12)} disabled={busy}>
        {t.advanceYear}
      </button>
      <Outcome mutation={advance} success={advance.isSuccess && clock.status === 'advancing' ? t.advancing : undefined} />
    </div>
  );
};

const ClockCard = ({ clock }: { clock: TSandboxClock }) => {
  const { may } = useConsole();
  const t = useMessages(sandboxMessages);
  const f = useFormat();
  const headingId = useId();
  return (
    <article className="card" aria-labelledby={headingId}>
      <div className="card-head">
        <h2 id={headingId}>{clock.name ?? clock.clockId}</h2>
        <span className={`badge ${clock.status === 'ready' ? 'badge-ok' : 'badge-warn'}`}>{t.statuses[clock.status]}</span>
      </div>
      <dl className="facts">
        <div>
          <dt>{t.clockTime}</dt>
          <dd>{f.instant(clock.frozenTime)}</dd>
        </div>
        <div>
          <dt>{t.customers}</dt>
          <dd>{clock.userCount}</dd>
        </div>
        <div>
          <dt>{t.id}</dt>
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
  const t = useMessages(sandboxMessages);
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
      aria-label={t.newClockLabel}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <label>
        {t.newClockName}
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
      </label>
      <button type="submit" className="button" disabled={create.isPending}>
        {t.create}
      </button>
      <Outcome mutation={create} success={create.data ? t.created(create.data.clockId) : undefined} />
    </form>
  );
};

/** Sandbox only: test clocks (months of monitoring in seconds) and the story ssns that choose a test file. */
export const SandboxPage = ({ query }: { query: URLSearchParams }) => {
  const { api, may, session } = useConsole();
  const t = useMessages(sandboxMessages);
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
          <h1 tabIndex={-1}>{t.title}</h1>
        </div>
        <p>{t.production}</p>
      </>
    );
  }
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>{t.title}</h1>
        <p className="lede">{t.lede}</p>
      </div>
      {may('createSandboxClock') ? <CreateClock /> : null}
      {clocks.isPending ? (
        <Loading what={t.loading} />
      ) : clocks.isError ? (
        <>
          <ErrorState error={clocks.error} retry={() => void clocks.refetch()} />
          <Pager path={PATH} query={query} nextCursor={null} label={t.pagesLabel} />
        </>
      ) : clocks.data.data.length === 0 ? (
        <>
          <p>{may('createSandboxClock') ? t.noClockCreate : t.noClock}</p>
          <Pager path={PATH} query={query} nextCursor={null} label={t.pagesLabel} />
        </>
      ) : (
        <>
          <div className="cards">
            {clocks.data.data.map((clock) => (
              <ClockCard key={clock.clockId} clock={clock} />
            ))}
          </div>
          <Pager path={PATH} query={query} nextCursor={clocks.data.pagination.nextCursor} label={t.pagesLabel} />
        </>
      )}
      <section className="card" aria-labelledby="stories-heading">
        <h2 id="stories-heading">{t.storiesHeading}</h2>
        <ScrollRegion labelledBy="stories-caption">
          <table className="data-table">
            <caption id="stories-caption">{t.storiesCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.lastFour}</th>
                <th scope="col">{t.theFile}</th>
              </tr>
            </thead>
            <tbody>
              {STORIES.map((ssn) => (
                <tr key={ssn}>
                  <th scope="row">{ssn === 'other' ? t.anyOther : ssn}</th>
                  <td>{t.stories[ssn]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </section>
    </>
  );
};
