import type { TAuditChainVerification } from '@credit/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { formatCount, formatInstant } from '../format.ts';
import { useConsole } from '../services.tsx';
import { BadUser, FilterForm, typeUserDaysFilters } from '../ui/FilterForm.tsx';
import { Outcome } from '../ui/Outcome.tsx';
import { Pager } from '../ui/Pager.tsx';
import { ScrollRegion } from '../ui/ScrollRegion.tsx';
import { ErrorState, Loading } from '../ui/States.tsx';
import { AUDIT_TYPES } from '../vocabulary.ts';

const PATH = '/console/audit';

const BREAKS: Record<NonNullable<TAuditChainVerification['firstBroken']>['reason'], string> = {
  entry_altered: 'an entry no longer matches its hash: it was changed after it was written',
  previous_hash_mismatch: 'an entry does not link to the one before it',
  missing_entry: 'an entry is missing',
  head_mismatch: 'the trail does not end where its head says',
  checkpoint_signature: 'a retention checkpoint is not signed by us',
};

const verdict = (v: TAuditChainVerification): string =>
  v.ok
    ? `The chain holds: ${formatCount(v.checked)} entries re-hashed after entry ${v.from}, up to entry ${v.lastSeq}.`
    : `The chain is broken at entry ${v.firstBroken?.seq ?? v.lastSeq}: ${v.firstBroken ? BREAKS[v.firstBroken.reason] : 'unknown reason'}. ` +
      'Keep this page and tell your administrator and ours at once.';

/**
 * Checks the chain on request: from the newest checkpoint (what changed since the last check) by default, or every
 * entry kept, which re-hashes the whole trail and takes longer.
 */
const Verify = () => {
  const { api } = useConsole();
  const verify = useMutation({
    mutationFn: (from: 'checkpoint' | 'start') => api.call('verifyAuditTrail', { query: { from } }),
  });
  return (
    <section className="card" aria-labelledby="verify-heading">
      <h2 id="verify-heading">Is the trail intact?</h2>
      <p className="muted">
        Each entry carries the hash of the one before it. A check re-hashes the entries since the last check (or, in full, every
        entry kept), so an edit or a gap shows.
      </p>
      <div className="action">
        <button type="button" className="button" onClick={() => verify.mutate('checkpoint')} disabled={verify.isPending}>
          Verify the chain
        </button>
        <button type="button" className="button button-quiet" onClick={() => verify.mutate('start')} disabled={verify.isPending}>
          Verify every entry
        </button>
        <Outcome mutation={verify} success={verify.data ? verdict(verify.data) : undefined} />
      </div>
    </section>
  );
};

/** The bank's audit trail, filtered in the address, oldest first as the API lists it; and its chain check. */
export const AuditPage = ({ query }: { query: URLSearchParams }) => {
  const { api } = useConsole();
  const { fields, type, userId, badUser, from, before, cursor } = typeUserDaysFilters(query, AUDIT_TYPES);
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
        <h1 tabIndex={-1}>Audit trail</h1>
        <p className="lede">
          Every read of your customers’ data, every pull, token and change, and every console action under the staff id that made
          it.
        </p>
      </div>
      <Verify />
      <FilterForm key={query.toString()} path={PATH} query={query} fields={fields} label="Filter the audit trail" />
      {badUser ? (
        <BadUser />
      ) : trail.isPending ? (
        <Loading what="the audit trail" />
      ) : trail.isError ? (
        <>
          <ErrorState error={trail.error} retry={() => void trail.refetch()} />
          <Pager path={PATH} query={query} nextCursor={null} label="Audit trail pages" />
        </>
      ) : trail.data.data.length === 0 ? (
        <>
          <p>No entry matches these filters: widen the days or choose another type.</p>
          <Pager path={PATH} query={query} nextCursor={null} label="Audit trail pages" />
        </>
      ) : (
        <>
          <ScrollRegion labelledBy="audit-caption">
            <table className="data-table">
              <caption id="audit-caption">Audit entries, oldest first</caption>
              <thead>
                <tr>
                  <th scope="col" className="number">
                    #
                  </th>
                  <th scope="col">Entry</th>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Customer</th>
                  <th scope="col">What</th>
                </tr>
              </thead>
              <tbody>
                {trail.data.data.map((entry) => (
                  <tr key={entry.eventId}>
                    <td className="number">{entry.sequence}</td>
                    <th scope="row">{entry.type}</th>
                    <td>{formatInstant(entry.occurredAt)}</td>
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
          <Pager path={PATH} query={query} nextCursor={trail.data.pagination.nextCursor} label="Audit trail pages" />
        </>
      )}
    </>
  );
};
