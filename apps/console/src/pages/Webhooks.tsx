import type { TDeliveryLogEntry, TEventType, TWebhook } from '@credit/contract';
import { isCreditApiError } from '@credit/sdk/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { formatInstant } from '../format.ts';
import { hrefWith, Link } from '../router.tsx';
import { useConsole } from '../services.tsx';
import { type FilterField, FilterForm, oneOf } from '../ui/FilterForm.tsx';
import { Outcome } from '../ui/Outcome.tsx';
import { Pager } from '../ui/Pager.tsx';
import { ScrollRegion } from '../ui/ScrollRegion.tsx';
import { ErrorState, Loading } from '../ui/States.tsx';

const WEBHOOKS_KEY = ['listWebhooks'] as const;
const PATH = '/console/webhooks';
const WEBHOOK_ID = /^wh_[A-Za-z0-9]{1,40}$/;
const DELIVERY_STATUSES = ['success', 'failed'] as const;
const LOG_FIELDS: FilterField[] = [{ name: 'status', label: 'Outcome', kind: 'select', options: DELIVERY_STATUSES }];

/** `datetime-local` wants `YYYY-MM-DDTHH:mm` in local time; this is a day ago. */
const aDayAgoLocal = () => {
  const date = new Date(Date.now() - 86_400_000);
  date.setMinutes(date.getMinutes() - date.getTimezoneOffset());
  return date.toISOString().slice(0, 16);
};

const TestEvent = ({ webhook }: { webhook: TWebhook }) => {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [eventType, setEventType] = useState<TEventType>(webhook.events[0] ?? 'user.enrolled');
  const test = useMutation({
    mutationFn: () => api.call('testWebhook', { params: { webhookId: webhook.webhookId }, body: { eventType } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
  const result = test.data
    ? test.data.status === 'success'
      ? `Delivered: your endpoint answered HTTP ${test.data.statusCode} in ${test.data.responseTime} ms.`
      : `Not delivered: ${test.data.error ?? `HTTP ${test.data.statusCode}`}.`
    : undefined;
  return (
    <form
      className="action"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        test.mutate();
      }}
    >
      <label>
        Test event
        <select value={eventType} onChange={(e) => setEventType(e.target.value as TEventType)}>
          {webhook.events.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button" disabled={test.isPending}>
        Send a test event
      </button>
      <Outcome mutation={test} success={result} />
    </form>
  );
};

const Recover = ({ webhook }: { webhook: TWebhook }) => {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [since, setSince] = useState(aDayAgoLocal);
  const recover = useMutation({
    mutationFn: () =>
      api.call('recoverWebhook', { params: { webhookId: webhook.webhookId }, body: { since: new Date(since).toISOString() } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
  const result = recover.data
    ? `${recover.data.queued} missed ${recover.data.queued === 1 ? 'event' : 'events'} queued` +
      (recover.data.status === 'active' ? '; they go out now.' : '; they go out once the endpoint is re-activated.')
    : undefined;
  return (
    <form
      className="action"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        recover.mutate();
      }}
    >
      <label>
        Missed since (your time)
        <input type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} required />
      </label>
      <button type="submit" className="button" disabled={recover.isPending}>
        Recover missed events
      </button>
      <Outcome mutation={recover} success={result} />
    </form>
  );
};

const RotateSecret = ({ webhook }: { webhook: TWebhook }) => {
  const { api } = useConsole();
  const [confirming, setConfirming] = useState(false);
  const secretId = useId();
  const rotate = useMutation({
    mutationFn: () => api.call('rotateWebhookSecret', { params: { webhookId: webhook.webhookId }, body: {} }),
    onSettled: () => setConfirming(false),
  });
  return (
    <div className="action">
      {confirming ? (
        <>
          <p>A new secret signs every delivery from now on; the old one also signs for 24 hours.</p>
          <button type="button" className="button button-danger" onClick={() => rotate.mutate()}>
            Rotate now
          </button>
          <button type="button" className="button button-quiet" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </>
      ) : (
        <button type="button" className="button" onClick={() => setConfirming(true)} disabled={rotate.isPending}>
          Rotate secret
        </button>
      )}
      <Outcome mutation={rotate} success={undefined} />
      {rotate.data?.secret ? (
        <div className="secret" role="status">
          <label htmlFor={secretId}>New secret (shown only now: put it in your receiver’s settings)</label>
          <input id={secretId} readOnly value={rotate.data.secret} onFocus={(e) => e.target.select()} />
          <p>The previous secret keeps signing until {formatInstant(rotate.data.previousSecretExpiresAt)}.</p>
        </div>
      ) : null}
    </div>
  );
};

const Reactivate = ({ webhook }: { webhook: TWebhook }) => {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const reactivate = useMutation({
    mutationFn: () => api.call('updateWebhook', { params: { webhookId: webhook.webhookId }, body: { status: 'active' } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
  return (
    <div className="action">
      <button type="button" className="button" onClick={() => reactivate.mutate()} disabled={reactivate.isPending}>
        Re-activate
      </button>
      <Outcome mutation={reactivate} success={reactivate.isSuccess ? 'Active again: deliveries resume.' : undefined} />
    </div>
  );
};

const Resend = ({ webhookId, delivery }: { webhookId: string; delivery: TDeliveryLogEntry }) => {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: () => api.call('retryWebhookDelivery', { params: { webhookId, deliveryId: delivery.deliveryId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['listWebhookDeliveries', webhookId] }),
  });
  const result = resend.data
    ? resend.data.status === 'success'
      ? `Delivered (HTTP ${resend.data.statusCode}).`
      : `Failed again: ${resend.data.error ?? `HTTP ${resend.data.statusCode}`}.`
    : undefined;
  return (
    <>
      <button
        type="button"
        className="button button-quiet"
        onClick={() => resend.mutate()}
        disabled={resend.isPending}
        aria-label={`Resend ${delivery.eventType} ${delivery.eventId}`}
      >
        Resend
      </button>
      <Outcome mutation={resend} success={result} />
    </>
  );
};

/** One endpoint's delivery attempts, newest first, filtered and paged in the address. */
const DeliveryLog = ({ webhook, query }: { webhook: TWebhook; query: URLSearchParams }) => {
  const { api, may } = useConsole();
  const status = oneOf(query.get('status'), DELIVERY_STATUSES);
  const cursor = query.get('cursor') ?? undefined;
  const log = useQuery({
    queryKey: ['listWebhookDeliveries', webhook.webhookId, status, cursor],
    queryFn: () =>
      api.call('listWebhookDeliveries', {
        params: { webhookId: webhook.webhookId },
        query: { limit: 50, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) },
      }),
  });
  return (
    <section className="card" aria-labelledby="log-heading">
      <h2 id="log-heading">Delivery log: {webhook.url}</h2>
      <p>
        <Link href={PATH}>← All endpoints</Link>
      </p>
      <FilterForm
        key={query.toString()}
        path={PATH}
        query={query}
        fields={LOG_FIELDS}
        label="Filter the delivery log"
        keep={{ endpoint: webhook.webhookId }}
      />
      {log.isPending ? (
        <Loading what="the delivery log" />
      ) : log.isError ? (
        <>
          <ErrorState error={log.error} retry={() => void log.refetch()} />
          <Pager path={PATH} query={query} nextCursor={null} label="Delivery log pages" />
        </>
      ) : log.data.data.length === 0 ? (
        <>
          <p>No delivery {status ? `that ${status === 'failed' ? 'failed' : 'succeeded'} ` : ''}yet.</p>
          <Pager path={PATH} query={query} nextCursor={null} label="Delivery log pages" />
        </>
      ) : (
        <>
          <ScrollRegion labelledBy="log-caption">
            <table className="data-table">
              <caption id="log-caption">Delivery attempts, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">When</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Next try</th>
                  {may('retryWebhookDelivery') ? <th scope="col">Resend</th> : null}
                </tr>
              </thead>
              <tbody>
                {log.data.data.map((entry, i) => (
                  <tr key={`${entry.deliveryId}/${entry.attempt ?? i}/${entry.deliveredAt}`}>
                    <th scope="row">
                      {entry.eventType} <span className="mono">{entry.eventId}</span>
                    </th>
                    <td>{formatInstant(entry.deliveredAt)}</td>
                    <td>
                      {entry.status === 'success'
                        ? `delivered (HTTP ${entry.statusCode})`
                        : `failed: ${entry.error ?? `HTTP ${entry.statusCode}`}`}
                    </td>
                    <td>{entry.attempt ?? 'test'}</td>
                    <td>{formatInstant(entry.nextAttemptAt)}</td>
                    {may('retryWebhookDelivery') ? (
                      <td>{entry.attempt ? <Resend webhookId={webhook.webhookId} delivery={entry} /> : '—'}</td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <Pager path={PATH} query={query} nextCursor={log.data.pagination.nextCursor} label="Delivery log pages" />
        </>
      )}
    </section>
  );
};

const healthy = (webhook: TWebhook) => webhook.status === 'active' && webhook.health.consecutiveFailures === 0;

const WebhookCard = ({ webhook }: { webhook: TWebhook }) => {
  const { may } = useConsole();
  const headingId = useId();
  const { health } = webhook;
  return (
    <article className="card" aria-labelledby={headingId}>
      <div className="card-head">
        <h2 id={headingId} className="url">
          {webhook.url}
        </h2>
        <span className={`badge ${healthy(webhook) ? 'badge-ok' : 'badge-warn'}`}>
          {webhook.status === 'active'
            ? healthy(webhook)
              ? 'Healthy'
              : 'Failing'
            : webhook.status === 'failed'
              ? 'Failed'
              : 'Disabled'}
        </span>
      </div>
      <p className="muted">Receives: {webhook.events.join(', ')}</p>
      <dl className="facts">
        <div>
          <dt>Last delivery</dt>
          <dd>{formatInstant(health.lastDeliveryAt)}</dd>
        </div>
        <div>
          <dt>Last success</dt>
          <dd>{formatInstant(health.lastSuccessAt)}</dd>
        </div>
        <div>
          <dt>Last failure</dt>
          <dd>{formatInstant(health.lastFailureAt)}</dd>
        </div>
        <div>
          <dt>Reason</dt>
          <dd>{health.lastFailureReason ?? '—'}</dd>
        </div>
        <div>
          <dt>Failures in a row</dt>
          <dd>{health.consecutiveFailures}</dd>
        </div>
        {health.disabledReason ? (
          <div>
            <dt>Stopped</dt>
            <dd>
              {formatInstant(health.disabledAt)}: {health.disabledReason}
            </dd>
          </div>
        ) : null}
      </dl>
      <p>
        <Link href={hrefWith(PATH, { endpoint: webhook.webhookId })}>Delivery log of this endpoint</Link>
      </p>
      {may('testWebhook') ? (
        <div className="actions">
          <TestEvent webhook={webhook} />
          <Recover webhook={webhook} />
          {may('rotateWebhookSecret') ? <RotateSecret webhook={webhook} /> : null}
          {webhook.status !== 'active' && may('updateWebhook') ? <Reactivate webhook={webhook} /> : null}
        </div>
      ) : null}
    </article>
  );
};

const NoSuchEndpoint = () => (
  <p className="state state-error" role="alert">
    The address names no endpoint of yours. Choose one from <Link href={PATH}>the list</Link>.
  </p>
);

/** The delivery log of the endpoint the address names, read by its id (it may be past the list's first page). */
const EndpointLog = ({ endpoint, query }: { endpoint: string; query: URLSearchParams }) => {
  const { api } = useConsole();
  const valid = WEBHOOK_ID.test(endpoint);
  const webhook = useQuery({
    // Under the list's key, so whatever refreshes the list (a recovery, a re-activation) refreshes this too.
    queryKey: [...WEBHOOKS_KEY, 'one', endpoint],
    queryFn: () => api.call('getWebhook', { params: { webhookId: endpoint } }),
    enabled: valid,
    retry: false,
  });
  if (!valid) return <NoSuchEndpoint />;
  if (webhook.isPending) return <Loading what="the endpoint" />;
  if (webhook.isError) {
    return isCreditApiError(webhook.error) && webhook.error.status === 404 ? (
      <NoSuchEndpoint />
    ) : (
      <ErrorState error={webhook.error} retry={() => void webhook.refetch()} />
    );
  }
  return <DeliveryLog webhook={webhook.data} query={query} />;
};

/** The bank's webhook endpoints with their health; an editor also tests, recovers and rotates. */
export const WebhooksPage = ({ query }: { query: URLSearchParams }) => {
  const { api, may } = useConsole();
  const endpoint = query.get('endpoint') ?? '';
  const webhooks = useQuery({ queryKey: WEBHOOKS_KEY, queryFn: () => api.call('listWebhooks', { query: { limit: 100 } }) });
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>Webhooks</h1>
        <p className="lede">Where we send your events, and how each endpoint is doing.</p>
      </div>
      {may('testWebhook') ? null : (
        <p className="note">You are signed in as a viewer: you see every endpoint’s health. Changes need an editor link.</p>
      )}
      {webhooks.isPending ? (
        <Loading what="your webhook endpoints" />
      ) : webhooks.isError ? (
        <ErrorState error={webhooks.error} retry={() => void webhooks.refetch()} />
      ) : webhooks.data.data.length === 0 ? (
        <p>No webhook endpoint yet: your developers add one through the API (createWebhook).</p>
      ) : endpoint ? (
        <EndpointLog endpoint={endpoint} query={query} />
      ) : (
        <div className="cards">
          {webhooks.data.data.map((webhook) => (
            <WebhookCard key={webhook.webhookId} webhook={webhook} />
          ))}
        </div>
      )}
    </>
  );
};
