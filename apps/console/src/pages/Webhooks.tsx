import type { TDeliveryLogEntry, TEventType, TWebhook } from '@credit/contract';
import { isCreditApiError } from '@credit/sdk/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useFormat, useMessages } from '../i18n.tsx';
import { hrefWith, Link } from '../router.tsx';
import { useConsole } from '../services.tsx';
import { type FilterField, FilterForm, oneOf } from '../ui/FilterForm.tsx';
import { Outcome } from '../ui/Outcome.tsx';
import { Pager } from '../ui/Pager.tsx';
import { ScrollRegion } from '../ui/ScrollRegion.tsx';
import { ErrorState, Loading } from '../ui/States.tsx';
import { webhooksMessages } from './webhooks-messages.ts';

const WEBHOOKS_KEY = ['listWebhooks'] as const;
const PATH = '/console/webhooks';
const WEBHOOK_ID = /^wh_[A-Za-z0-9]{1,40}$/;
const DELIVERY_STATUSES = ['success', 'failed'] as const;

/** `datetime-local` wants `YYYY-MM-DDTHH:mm` in local time; this is a day ago. */
const aDayAgoLocal = () => {
  const date = new Date(Date.now() - 86_400_000);
  date.setMinutes(date.getMinutes() - date.getTimezoneOffset());
  return date.toISOString().slice(0, 16);
};

const TestEvent = ({ webhook }: { webhook: TWebhook }) => {
  const { api } = useConsole();
  const t = useMessages(webhooksMessages);
  const queryClient = useQueryClient();
  const [eventType, setEventType] = useState<TEventType>(webhook.events[0] ?? 'user.enrolled');
  const test = useMutation({
    mutationFn: () => api.call('testWebhook', { params: { webhookId: webhook.webhookId }, body: { eventType } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
  const result = test.data
    ? test.data.status === 'success'
      ? t.delivered(test.data.statusCode, test.data.responseTime)
      : t.notDelivered(test.data.error ?? `HTTP ${test.data.statusCode}`)
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
        {t.testEvent}
        <select value={eventType} onChange={(e) => setEventType(e.target.value as TEventType)}>
          {webhook.events.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button" disabled={test.isPending}>
        {t.sendTest}
      </button>
      <Outcome mutation={test} success={result} />
    </form>
  );
};

const Recover = ({ webhook }: { webhook: TWebhook }) => {
  const { api } = useConsole();
  const t = useMessages(webhooksMessages);
  const queryClient = useQueryClient();
  const [since, setSince] = useState(aDayAgoLocal);
  const recover = useMutation({
    mutationFn: () =>
      api.call('recoverWebhook', { params: { webhookId: webhook.webhookId }, body: { since: new Date(since).toISOString() } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
  const result = recover.data ? t.queued(recover.data.queued, recover.data.status === 'active') : undefined;
  return (
    <form
      className="action"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        recover.mutate();
      }}
    >
      <label>
        {t.missedSince}
        <input type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} required />
      </label>
      <button type="submit" className="button" disabled={recover.isPending}>
        {t.recover}
      </button>
      <Outcome mutation={recover} success={result} />
    </form>
  );
};

const RotateSecret = ({ webhook }: { webhook: TWebhook }) => {
  const { api } = useConsole();
  const t = useMessages(webhooksMessages);
  const f = useFormat();
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
          <p>{t.rotateWarning}</p>
          <button type="button" className="button button-danger" onClick={() => rotate.mutate()}>
            {t.rotateNow}
          </button>
          <button type="button" className="button button-quiet" onClick={() => setConfirming(false)}>
            {t.cancel}
          </button>
        </>
      ) : (
        <button type="button" className="button" onClick={() => setConfirming(true)} disabled={rotate.isPending}>
          {t.rotate}
        </button>
      )}
      <Outcome mutation={rotate} success={undefined} />
      {rotate.data?.secret ? (
        <div className="secret" role="status">
          <label htmlFor={secretId}>{t.newSecret}</label>
          <input id={secretId} readOnly value={rotate.data.secret} onFocus={(e) => e.target.select()} />
          <p>{t.previousUntil(f.instant(rotate.data.previousSecretExpiresAt))}</p>
        </div>
      ) : null}
    </div>
  );
};

const Reactivate = ({ webhook }: { webhook: TWebhook }) => {
  const { api } = useConsole();
  const t = useMessages(webhooksMessages);
  const queryClient = useQueryClient();
  const reactivate = useMutation({
    mutationFn: () => api.call('updateWebhook', { params: { webhookId: webhook.webhookId }, body: { status: 'active' } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
  return (
    <div className="action">
      <button type="button" className="button" onClick={() => reactivate.mutate()} disabled={reactivate.isPending}>
        {t.reactivate}
      </button>
      <Outcome mutation={reactivate} success={reactivate.isSuccess ? t.reactivated : undefined} />
    </div>
  );
};

const Resend = ({ webhookId, delivery }: { webhookId: string; delivery: TDeliveryLogEntry }) => {
  const { api } = useConsole();
  const t = useMessages(webhooksMessages);
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: () => api.call('retryWebhookDelivery', { params: { webhookId, deliveryId: delivery.deliveryId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['listWebhookDeliveries', webhookId] }),
  });
  const result = resend.data
    ? resend.data.status === 'success'
      ? t.resent(resend.data.statusCode)
      : t.failedAgain(resend.data.error ?? `HTTP ${resend.data.statusCode}`)
    : undefined;
  return (
    <>
      <button
        type="button"
        className="button button-quiet"
        onClick={() => resend.mutate()}
        disabled={resend.isPending}
        aria-label={t.resendLabel(delivery.eventType, delivery.eventId)}
      >
        {t.resend}
      </button>
      <Outcome mutation={resend} success={result} />
    </>
  );
};

/** One endpoint's delivery attempts, newest first, filtered and paged in the address. */
const DeliveryLog = ({ webhook, query }: { webhook: TWebhook; query: URLSearchParams }) => {
  const { api, may } = useConsole();
  const t = useMessages(webhooksMessages);
  const f = useFormat();
  const logFields: FilterField[] = [
    { name: 'status', label: t.outcome, kind: 'select', options: DELIVERY_STATUSES, optionLabels: t.outcomes },
  ];
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
      <h2 id="log-heading">{t.logHeading(webhook.url)}</h2>
      <p>
        <Link href={PATH}>{t.allEndpoints}</Link>
      </p>
      <FilterForm
        key={query.toString()}
        path={PATH}
        query={query}
        fields={logFields}
        label={t.filterLabel}
        keep={{ endpoint: webhook.webhookId }}
      />
      {log.isPending ? (
        <Loading what={t.loadingLog} />
      ) : log.isError ? (
        <>
          <ErrorState error={log.error} retry={() => void log.refetch()} />
          <Pager path={PATH} query={query} nextCursor={null} label={t.pagesLabel} />
        </>
      ) : log.data.data.length === 0 ? (
        <>
          <p>{status === 'failed' ? t.noFailed : status === 'success' ? t.noSucceeded : t.noDelivery}</p>
          <Pager path={PATH} query={query} nextCursor={null} label={t.pagesLabel} />
        </>
      ) : (
        <>
          <ScrollRegion labelledBy="log-caption">
            <table className="data-table">
              <caption id="log-caption">{t.logCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.event}</th>
                  <th scope="col">{t.when}</th>
                  <th scope="col">{t.outcome}</th>
                  <th scope="col">{t.attempt}</th>
                  <th scope="col">{t.nextTry}</th>
                  {may('retryWebhookDelivery') ? <th scope="col">{t.resend}</th> : null}
                </tr>
              </thead>
              <tbody>
                {log.data.data.map((entry, i) => (
                  <tr key={`${entry.deliveryId}/${entry.attempt ?? i}/${entry.deliveredAt}`}>
                    <th scope="row">
                      {entry.eventType} <span className="mono">{entry.eventId}</span>
                    </th>
                    <td>{f.instant(entry.deliveredAt)}</td>
                    <td>
                      {entry.status === 'success'
                        ? t.deliveredCell(entry.statusCode)
                        : t.failedCell(entry.error ?? `HTTP ${entry.statusCode}`)}
                    </td>
                    <td>{entry.attempt ?? t.test}</td>
                    <td>{f.instant(entry.nextAttemptAt)}</td>
                    {may('retryWebhookDelivery') ? (
                      <td>{entry.attempt ? <Resend webhookId={webhook.webhookId} delivery={entry} /> : '—'}</td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <Pager path={PATH} query={query} nextCursor={log.data.pagination.nextCursor} label={t.pagesLabel} />
        </>
      )}
    </section>
  );
};

const healthy = (webhook: TWebhook) => webhook.status === 'active' && webhook.health.consecutiveFailures === 0;

const WebhookCard = ({ webhook }: { webhook: TWebhook }) => {
  const { may } = useConsole();
  const t = useMessages(webhooksMessages);
  const f = useFormat();
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
              ? t.healthy
              : t.failing
            : webhook.status === 'failed'
              ? t.failed
              : t.disabled}
        </span>
      </div>
      <p className="muted">{t.receives(webhook.events.join(', '))}</p>
      <dl className="facts">
        <div>
          <dt>{t.lastDelivery}</dt>
          <dd>{f.instant(health.lastDeliveryAt)}</dd>
        </div>
        <div>
          <dt>{t.lastSuccess}</dt>
          <dd>{f.instant(health.lastSuccessAt)}</dd>
        </div>
        <div>
          <dt>{t.lastFailure}</dt>
          <dd>{f.instant(health.lastFailureAt)}</dd>
        </div>
        <div>
          <dt>{t.reason}</dt>
          <dd>{health.lastFailureReason ?? '—'}</dd>
        </div>
        <div>
          <dt>{t.failuresInARow}</dt>
          <dd>{health.consecutiveFailures}</dd>
        </div>
        {health.disabledReason ? (
          <div>
            <dt>{t.stopped}</dt>
            <dd>
              {f.instant(health.disabledAt)}: {health.disabledReason}
            </dd>
          </div>
        ) : null}
      </dl>
      <p>
        <Link href={hrefWith(PATH, { endpoint: webhook.webhookId })}>{t.logLink}</Link>
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

const NoSuchEndpoint = () => {
  const t = useMessages(webhooksMessages);
  return (
    <p className="state state-error" role="alert">
      {t.noSuchEndpoint} <Link href={PATH}>{t.theList}</Link>.
    </p>
  );
};

/** The delivery log of the endpoint the address names, read by its id (it may be past the list's first page). */
const EndpointLog = ({ endpoint, query }: { endpoint: string; query: URLSearchParams }) => {
  const { api } = useConsole();
  const t = useMessages(webhooksMessages);
  const valid = WEBHOOK_ID.test(endpoint);
  const webhook = useQuery({
    // Under the list's key, so whatever refreshes the list (a recovery, a re-activation) refreshes this too.
    queryKey: [...WEBHOOKS_KEY, 'one', endpoint],
    queryFn: () => api.call('getWebhook', { params: { webhookId: endpoint } }),
    enabled: valid,
    retry: false,
  });
  if (!valid) return <NoSuchEndpoint />;
  if (webhook.isPending) return <Loading what={t.loadingEndpoint} />;
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
  const t = useMessages(webhooksMessages);
  const endpoint = query.get('endpoint') ?? '';
  const webhooks = useQuery({ queryKey: WEBHOOKS_KEY, queryFn: () => api.call('listWebhooks', { query: { limit: 100 } }) });
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>{t.title}</h1>
        <p className="lede">{t.lede}</p>
      </div>
      {may('testWebhook') ? null : <p className="note">{t.viewerNote}</p>}
      {webhooks.isPending ? (
        <Loading what={t.loading} />
      ) : webhooks.isError ? (
        <ErrorState error={webhooks.error} retry={() => void webhooks.refetch()} />
      ) : webhooks.data.data.length === 0 ? (
        <p>{t.none}</p>
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
