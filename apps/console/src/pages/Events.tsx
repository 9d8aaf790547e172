import { useQuery } from '@tanstack/react-query';
import { useFormat, useMessages } from '../i18n.tsx';
import { uiMessages } from '../messages.ts';
import { useConsole } from '../services.tsx';
import { BadUser, FilterForm, typeUserDaysFilters } from '../ui/FilterForm.tsx';
import { Pager } from '../ui/Pager.tsx';
import { ScrollRegion } from '../ui/ScrollRegion.tsx';
import { ErrorState, Loading } from '../ui/States.tsx';
import { EVENT_TYPES } from '../vocabulary.ts';
import { eventsMessages } from './events-messages.ts';

const PATH = '/console/events';

/** Fields a line never shows: the customer's ids (in their own column) and personal data or free text. */
const HIDDEN = new Set(['userId', 'externalUserId', 'email', 'firstName', 'lastName', 'lastError']);

/** What `data` says in a line: its ids and figures, never a whole body. */
const summary = (data: Record<string, unknown>) =>
  Object.entries(data)
    .filter(([key, value]) => !HIDDEN.has(key) && (typeof value !== 'object' || value === null))
    .slice(0, 4)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(' · ');

/** The events we recorded for the bank (what its webhooks deliver), newest first, filtered in the address. */
export const EventsPage = ({ query }: { query: URLSearchParams }) => {
  const { api } = useConsole();
  const t = useMessages(eventsMessages);
  const f = useFormat();
  const { fields, type, userId, badUser, from, before, cursor } = typeUserDaysFilters(
    query,
    EVENT_TYPES,
    useMessages(uiMessages),
  );
  const events = useQuery({
    queryKey: ['listEvents', type, userId, from, before, cursor],
    queryFn: () =>
      api.call('listEvents', {
        query: {
          limit: 50,
          ...(type ? { type } : {}),
          ...(userId ? { userId } : {}),
          ...(from ? { createdAfter: from } : {}),
          ...(before ? { createdBefore: before } : {}),
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
      <FilterForm key={query.toString()} path={PATH} query={query} fields={fields} label={t.filterLabel} />
      {badUser ? (
        <BadUser />
      ) : events.isPending ? (
        <Loading what={t.loading} />
      ) : events.isError ? (
        <>
          <ErrorState error={events.error} retry={() => void events.refetch()} />
          <Pager path={PATH} query={query} nextCursor={null} label={t.pagesLabel} />
        </>
      ) : events.data.data.length === 0 ? (
        <>
          <p>{t.none}</p>
          <Pager path={PATH} query={query} nextCursor={null} label={t.pagesLabel} />
        </>
      ) : (
        <>
          <ScrollRegion labelledBy="events-caption">
            <table className="data-table">
              <caption id="events-caption">{t.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.type}</th>
                  <th scope="col">{t.when}</th>
                  <th scope="col">{t.customer}</th>
                  <th scope="col">{t.details}</th>
                  <th scope="col">{t.eventId}</th>
                </tr>
              </thead>
              <tbody>
                {events.data.data.map((event) => {
                  const data = event.data as Record<string, unknown>;
                  return (
                    <tr key={event.id}>
                      <th scope="row">{event.type}</th>
                      <td>{f.instant(event.createdAt)}</td>
                      <td>{typeof data.userId === 'string' ? data.userId : '—'}</td>
                      <td>{summary(data)}</td>
                      <td className="mono">{event.id}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollRegion>
          <Pager path={PATH} query={query} nextCursor={events.data.pagination.nextCursor} label={t.pagesLabel} />
        </>
      )}
    </>
  );
};
