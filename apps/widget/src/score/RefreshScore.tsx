import type { TUser } from '@credit/contract';
import { isCreditApiError } from '@credit/sdk/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { announce } from '../a11y/announcer.tsx';
import { creditKey, refreshCreditScore } from '../api/credit.ts';
import { meKey, meQuery } from '../api/me.ts';
import { useApi, useEmitEvent } from '../app/WidgetServicesProvider.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { Button } from '../ui/Button.tsx';
import { messages } from './messages.ts';

/** setTimeout's longest delay; a later time is checked again when the frame is next looked at. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** When the file on record was pulled and the next pull is due: a day is what a monthly schedule means. */
const DATE_ONLY: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };

/**
 * "Refresh score": a bureau pull now, allowed once a day. The server says when the next one is allowed
 * (`monitoring.refreshAvailableAt` on the user, null when allowed now), so the button never trusts the
 * device's clock to decide; the clock only schedules the next look. The time shown is the server's too: for a
 * user on a sandbox test clock it is in the clock's time, which the device's clock knows nothing of.
 */
export function RefreshScore({ userId }: { userId: string }) {
  const t = useMessages(messages);
  const api = useApi();
  const emitEvent = useEmitEvent();
  const queryClient = useQueryClient();
  const { formatDateTime, formatNumber } = useI18n();
  const me = useQuery(meQuery(api));
  // After a 429 whose user record has not come back yet: the wait the API stated, on this device's clock. It only
  // keeps the button disabled; it is never shown as a date (the refetched user record brings the server's).
  const [blockedUntil, setBlockedUntil] = useState<string | null>(null);
  const shownAvailableAt = me.data?.monitoring.refreshAvailableAt ?? null;
  const lastRefreshedAt = me.data?.monitoring.lastRefreshedAt ?? null;
  const nextRefreshAt = me.data?.monitoring.status === 'active' ? (me.data.monitoring.nextRefreshAt ?? null) : null;
  const availableAt = shownAvailableAt ?? blockedUntil;

  useEffect(() => {
    if (!availableAt) return;
    const wait = Date.parse(availableAt) - Date.now();
    if (!(wait > 0)) return;
    const timer = setTimeout(
      () => {
        setBlockedUntil(null);
        void queryClient.invalidateQueries({ queryKey: meKey });
      },
      Math.min(wait, MAX_TIMER_MS),
    );
    return () => clearTimeout(timer);
  }, [availableAt, queryClient]);

  const refresh = useMutation({
    mutationFn: () => refreshCreditScore(api, userId),
    onSuccess: (result) => {
      // The setting decides what of the score the host hears (bridge/disclosure.ts); `none` is a placeholder.
      emitEvent({
        name: 'score_refreshed',
        data: { userId, disclosure: 'none', score: result.score, band: result.rating },
      });
      queryClient.setQueryData(creditKey(userId), result);
      queryClient.setQueryData<TUser>(
        meKey,
        (user) => user && { ...user, monitoring: { ...user.monitoring, refreshAvailableAt: result.refreshAvailableAt } },
      );
      // The factors and history changed with the score; the user record's times did too.
      void queryClient.invalidateQueries({ queryKey: creditKey(userId), predicate: (query) => query.queryKey.length > 2 });
      void queryClient.invalidateQueries({ queryKey: meKey });
      announce(
        t.refreshed(formatNumber(result.score), result.previousScore === null ? null : formatNumber(result.previousScore)),
      );
    },
    onError: (error) => {
      if (!isCreditApiError(error, 'RATE_LIMIT_EXCEEDED')) return;
      setBlockedUntil(new Date(Date.now() + (error.retryAfter ?? 60) * 1000).toISOString());
      void queryClient.invalidateQueries({ queryKey: meKey });
    },
  });

  const rateLimited = isCreditApiError(refresh.error, 'RATE_LIMIT_EXCEEDED');
  const result = refresh.data;
  return (
    <div className="cw-refresh">
      {lastRefreshedAt ? (
        <p className="cw-muted cw-small" data-testid="score-updated">
          {t.updated(formatDateTime(lastRefreshedAt, DATE_ONLY), nextRefreshAt ? formatDateTime(nextRefreshAt, DATE_ONLY) : null)}
        </p>
      ) : null}
      <Button variant="secondary" loading={refresh.isPending} disabled={Boolean(availableAt)} onClick={() => refresh.mutate()}>
        {refresh.isPending ? t.refreshing : t.refresh}
      </Button>
      {result ? (
        <p className="cw-refresh__result">
          {t.refreshed(formatNumber(result.score), result.previousScore === null ? null : formatNumber(result.previousScore))}
        </p>
      ) : null}
      {refresh.isError && !rateLimited ? (
        <p className="cw-refresh__error" role="alert">
          {t.refreshFailed}
        </p>
      ) : null}
      {shownAvailableAt ? <p className="cw-muted cw-small">{t.nextRefresh(formatDateTime(shownAvailableAt))}</p> : null}
    </div>
  );
}
