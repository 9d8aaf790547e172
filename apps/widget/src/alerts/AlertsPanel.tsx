import type { TAlert } from '@credit/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { announce } from '../a11y/announcer.tsx';
import { alertsKey, alertsQuery, markAlertRead, unreadAlertCountQuery } from '../api/alerts.ts';
import { useApi, useEmitEvent } from '../app/WidgetServicesProvider.tsx';
import { PanelError } from '../dashboard/PanelError.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { Badge, type BadgeTone } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { LoadingRegion, Skeleton } from '../ui/Skeleton.tsx';
import { messages } from './messages.ts';
import { SeverityIcon } from './SeverityIcon.tsx';
import './alerts.css';

type Severity = TAlert['severity'];
const SEVERITY_TONE: Record<Severity, BadgeTone> = { info: 'info', warning: 'warning', critical: 'danger' };
/** The list asks for this many; with fewer back, the list itself is the whole inbox and can set the badge. */
const LIST_LIMIT = 100;

const numberField = (data: Record<string, unknown>, key: string) =>
  typeof data[key] === 'number' ? (data[key] as number) : null;
const stringField = (data: Record<string, unknown>, key: string) =>
  typeof data[key] === 'string' ? (data[key] as string) : null;

/** Calendar dates the API writes into a message as `2026-09-26`. */
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/g;

/** The figures a known alert type carries, in a line; other types' data is free-form and not shown. */
function AlertFacts({ alert }: { alert: TAlert }) {
  const t = useMessages(messages);
  const { formatNumber, formatDate, locale } = useI18n();
  if (alert.type === 'score_change') {
    const previous = numberField(alert.data, 'previousScore');
    const next = numberField(alert.data, 'newScore');
    const change = numberField(alert.data, 'change') ?? (previous !== null && next !== null ? next - previous : null);
    if (previous === null || next === null || change === null) return null;
    const signed = formatNumber(change, { signDisplay: 'exceptZero' });
    return <p className="cw-alert__facts">{t.scoreChange(formatNumber(previous), formatNumber(next), signed)}</p>;
  }
  if (alert.type === 'new_inquiry') {
    const source = stringField(alert.data, 'inquirySource');
    const date = stringField(alert.data, 'inquiryDate');
    // The English message already names the source and the date; another language gets them in its own words.
    if (!source || !date || (locale === 'en' && alert.message.includes(date))) return null;
    return <p className="cw-alert__facts">{t.inquiry(source, formatDate(date))}</p>;
  }
  return null;
}

function AlertItem({ alert, userId }: { alert: TAlert; userId: string }) {
  const t = useMessages(messages);
  const api = useApi();
  const emitEvent = useEmitEvent();
  const { formatDateTime, formatDate } = useI18n();
  const queryClient = useQueryClient();
  const titleId = useId();
  const errorId = useId();
  const articleRef = useRef<HTMLElement>(null);
  const unread = alert.status === 'unread';

  const markRead = useMutation({
    mutationFn: () => markAlertRead(api, userId, alert.alertId),
    onSuccess: async (updated) => {
      queryClient.setQueryData(alertsQuery(api, userId).queryKey, (list) =>
        list?.map((item) => (item.alertId === updated.alertId ? { ...item, status: updated.status } : item)),
      );
      emitEvent({ name: 'alert_read', data: { userId, alertId: alert.alertId } });
      announce(t.markedRead(alert.title));
      // The button is gone now; keep keyboard users on the alert they were reading.
      articleRef.current?.focus();
      await queryClient.invalidateQueries({ queryKey: alertsKey(userId) });
    },
  });

  return (
    <li className="cw-alerts__item">
      <article
        ref={articleRef}
        tabIndex={-1}
        aria-labelledby={titleId}
        className={`cw-alert cw-alert--${alert.severity} ${unread ? 'cw-alert--unread' : 'cw-alert--read'}`}
      >
        <div className="cw-alert__meta">
          <Badge tone={SEVERITY_TONE[alert.severity]}>
            <SeverityIcon severity={alert.severity} />
            {t.severity[alert.severity]}
          </Badge>
          {unread ? <Badge tone="brand">{t.newBadge}</Badge> : <span className="cw-muted cw-small">{t.read}</span>}
        </div>
        <h3 id={titleId} className="cw-alert__title">
          {alert.title}
        </h3>
        <p className="cw-alert__message">
          {alert.message.replace(ISO_DATE, (date) => (Number.isNaN(Date.parse(date)) ? date : formatDate(date)))}
        </p>
        <AlertFacts alert={alert} />
        <p className="cw-muted cw-small">
          <time dateTime={alert.createdAt}>{t.received(formatDateTime(alert.createdAt))}</time>
        </p>
        {unread ? (
          <div className="cw-card-actions">
            <Button
              variant="secondary"
              loading={markRead.isPending}
              onClick={() => markRead.mutate()}
              aria-describedby={markRead.isError ? errorId : undefined}
            >
              {t.markRead}
              <span className="cw-visually-hidden">{t.markReadFor(alert.title)}</span>
            </Button>
            {markRead.isError ? (
              <p id={errorId} className="cw-inline-error" role="alert">
                <SeverityIcon severity="warning" />
                {t.markFailed}
              </p>
            ) : null}
          </div>
        ) : null}
      </article>
    </li>
  );
}

/** The alerts tab: newest first, unread ones marked "New" and with a "Mark as read" button. */
export function AlertsPanel({ userId }: { userId: string }) {
  const t = useMessages(messages);
  const api = useApi();
  const headingId = useId();
  const queryClient = useQueryClient();
  const alerts = useQuery(alertsQuery(api, userId));
  const unread = alerts.data?.filter((alert) => alert.status === 'unread').length ?? 0;

  // A fresh full list knows the unread count: the tab badge follows it without another request.
  useEffect(() => {
    if (alerts.data && alerts.data.length < LIST_LIMIT) {
      queryClient.setQueryData(unreadAlertCountQuery(api, userId).queryKey, unread);
    }
  }, [alerts.data, unread, queryClient, userId, api]);

  let body: React.ReactNode;
  if (alerts.isPending) {
    body = (
      <LoadingRegion label={t.loading}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={120} />
        ))}
      </LoadingRegion>
    );
  } else if (alerts.isError) {
    body = <PanelError error={alerts.error} onRetry={() => alerts.refetch()} />;
  } else if (alerts.data.length === 0) {
    body = (
      <div className="cw-empty-state cw-alerts__empty">
        <h3>{t.emptyTitle}</h3>
        <p>{t.emptyBody}</p>
      </div>
    );
  } else {
    const newestFirst = [...alerts.data].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    body = (
      <>
        <p className="cw-alerts__count">{unread > 0 ? t.unreadCount(unread) : t.allRead}</p>
        <ul className="cw-card-list">
          {newestFirst.map((alert) => (
            <AlertItem key={alert.alertId} alert={alert} userId={userId} />
          ))}
        </ul>
      </>
    );
  }

  return (
    <section className="cw-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t.heading}</h2>
      {body}
    </section>
  );
}
