import type { TAuditChainVerification } from '@credit/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type Formats, useFormat, useMessages } from '../i18n.tsx';
import { uiMessages } from '../messages.ts';
import { useConsole } from '../services.tsx';
import { BadUser, FilterForm, typeUserDaysFilters } from '../ui/FilterForm.tsx';
import { Outcome } from '../ui/Outcome.tsx';
import { Pager } from '../ui/Pager.tsx';
import { ScrollRegion } from '../ui/ScrollRegion.tsx';
import { ErrorState, Loading } from '../ui/States.tsx';
import { AUDIT_TYPES } from '../vocabulary.ts';
import { auditMessages } from './audit-messages.ts';

const PATH = '/console/audit';

type AuditMessages = (typeof auditMessages)['en'];

const verdict = (v: TAuditChainVerification, t: AuditMessages, f: Formats): string =>
  v.ok
    ? t.holds(f.count(v.checked), v.from, v.lastSeq)
    : t.broken(v.firstBroken?.seq ?? v.lastSeq, v.firstBroken ? t.breaks[v.firstBroken.reason] : t.unknownBreak);

/**
 * Checks the chain on request: from the newest checkpoint (what changed since the last check) by default, or every
 * entry kept, which re-hashes the whole trail and takes longer.
 */
const Verify = () => {
  const { api } = useConsole();
  const t = useMessages(auditMessages);
  const f = useFormat();
  const verify = useMutation({
    mutationFn: (from: 'checkpoint' | 'start') => api.call('verifyAuditTrail', { query: { from } }),
  });
  return (
    <section className="card" aria-labelledby="verify-heading">
      <h2 id="verify-heading">{t.verifyHeading}</h2>
      <p className="muted">{t.verifyIntro}</p>
      <div className="action">
        <button type="button" className="button" onClick={() => verify.mutate('checkpoint')} disabled={verify.isPending}>
          {t.verify}
        </button>
        <button type="button" className="button button-quiet" onClick={() => verify.mutate('start')} disabled={verify.isPending}>
          {t.verifyAll}
        </button>
        <Outcome mutation={verify} success={verify.data ? verdict(verify.data, t, f) : undefined} />
      </div>
    </section>
  );
};

/** The bank's audit trail, filtered in the address, oldest first as the API lists it; and its chain check. */
export const AuditPage = ({ query }: { query: URLSearchParams }) => {
  const { api } = useConsole();
  const t = useMessages(auditMessages);
  const f = useFormat();
  const { fields, type, userId, badUser, from, before, cursor } = typeUserDaysFilters(
    query,
    AUDIT_TYPES,
    useMessages(uiMessages),
  );
  const trail = useQuery({
    queryKey: ['listAuditEvents', type, userId, from, before, cursor],
    queryFn: () =>
      api.call('listAuditEvents', {
        query: {
          limit: 50,
          ...(type ? { type } : {}),
          ...(userId ? { userId } : {}),
          ...(from ? { from } : {}),
          ...(before ? { to: before } : {}),
          ...(cursor ? { cursor } : {}),
        },
      }),
    enabled: !badUser,
  });
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>{t.title}</h1>
        <p className="lede">{t.lede}</p>
      </div>
      <Verify />
      <FilterForm key={query.toString()} path={PATH} query={query} fields={fields} label={t.filterLabel} />
      {badUser ? (
        <BadUser />
      ) : trail.isPending ? (
        <Loading what={t.loading} />
      ) : trail.isError ? (
        <>
          <ErrorState error={trail.error} retry={() => void trail.refetch()} />
          <Pager path={PATH} query={query} nextCursor={null} label={t.pagesLabel} />
        </>
      ) : trail.data.data.length === 0 ? (
        <>
          <p>{t.none}</p>
          <Pager path={PATH} query={query} nextCursor={null} label={t.pagesLabel} />
        </>
      ) : (
        <>
          <ScrollRegion labelledBy="audit-caption">
            <table className="data-table">
              <caption id="audit-caption">{t.caption}</caption>
              <thead>
                <tr>
                  <th scope="col" className="number">
                    #
                  </th>
                  <th scope="col">{t.entry}</th>
                  <th scope="col">{t.when}</th>
                  <th scope="col">{t.who}</th>
                  <th scope="col">{t.customer}</th>
                  <th scope="col">{t.what}</th>
                </tr>
              </thead>
              <tbody>
                {trail.data.data.map((entry) => (
                  <tr key={entry.eventId}>
                    <td className="number">{entry.sequence}</td>
                    <th scope="row">{entry.type}</th>
                    <td>{f.instant(entry.occurredAt)}</td>
                    <td>
                      {entry.actor.kind}: {entry.actor.id}
                    </td>
                    <td>{entry.userId ?? '—'}</td>
                    <td>
                      {Object.entries(entry.subject)
                        .map(([k, v]) => `${k}: ${v}`)
                        .join(' · ')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <Pager path={PATH} query={query} nextCursor={trail.data.pagination.nextCursor} label={t.pagesLabel} />
        </>
      )}
    </>
  );
};
