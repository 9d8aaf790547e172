import { useQuery } from '@tanstack/react-query';
import { formatInstant } from '../format.ts';
import { useConsole } from '../services.tsx';
import { BadUser, FilterForm, typeUserDaysFilters } from '../ui/FilterForm.tsx';
import { Pager } from '../ui/Pager.tsx';
import { ScrollRegion } from '../ui/ScrollRegion.tsx';
import { ErrorState, Loading } from '../ui/States.tsx';
import { EVENT_TYPES } from '../vocabulary.ts';

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
  const { fields, type, userId, badUser, from, before, cursor } = typeUserDaysFilters(query, EVENT_TYPES);
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
        <h1 tabIndex={-1}>Events</h1>
        <p className="lede">Everything we told your systems about, as your webhooks receive it: the last 30 days.</p>
      </div>
      <FilterForm key={query.toString()} path={PATH} query={query} fields={fields} label="Filter the events" />
      {badUser ? (
        <BadUser />
      ) : events.isPending ? (
        <Loading what="the events" />
      ) : events.isError ? (
        <>
          <ErrorState error={events.error} retry={() => void events.refetch()} />
          <Pager path={PATH} query={query} nextCursor={null} label="Event pages" />
        </>
      ) : events.data.data.length === 0 ? (
        <>
          <p>No event matches these filters: widen the days or choose another type.</p>
          <Pager path={PATH} query={query} nextCursor={null} label="Event pages" />
        </>
      ) : (
        <>
          <ScrollRegion labelledBy="events-caption">
            <table className="data-table">
              <caption id="events-caption">Events, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Type</th>
                  <th scope="col">When</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Details</th>
                  <th scope="col">Event id</th>
                </tr>
              </thead>
              <tbody>
                {events.data.data.map((event) => {
                  const data = event.data as Record<string, unknown>;
                  return (
                    <tr key={event.id}>
                      <th scope="row">{event.type}</th>
                      <td>{formatInstant(event.createdAt)}</td>
                      <td>{typeof data.userId === 'string' ? data.userId : '—'}</td>
                      <td>{summary(data)}</td>
                      <td className="mono">{event.id}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollRegion>
          <Pager path={PATH} query={query} nextCursor={events.data.pagination.nextCursor} label="Event pages" />
        </>
      )}
    </>
  );
};
