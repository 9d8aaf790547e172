import { isCreditApiError } from '@credit/sdk/browser';
import { useEffect } from 'react';
import './errors.css';
import { useEmitEvent } from '../app/WidgetServicesProvider.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { Button } from '../ui/Button.tsx';
import { ScreenHeader } from '../ui/ScreenHeader.tsx';
import { isRetryable, requestIdOf, unlocksAtOf, widgetErrorCode } from './error-code.ts';
import { messages } from './messages.ts';

export interface ErrorScreenProps {
  error: unknown;
  /** Shown as "Try again" for failures that can pass (network, bureau down, rate limit, 5xx). */
  onRetry?: () => void;
  /** A whole-widget screen takes an h1 and focus; inside a dashboard tab use level 2 (the default is 1). */
  level?: 1 | 2;
  /** Send the `error` event to the host (default true); turn off when the same failure was already reported. */
  report?: boolean;
}

/** One clear screen per failure, with the unlock time, a retry, or a reference to quote, as fits the code. */
export function ErrorScreen({ error, onRetry, level = 1, report = true }: ErrorScreenProps) {
  const t = useMessages(messages);
  const emitEvent = useEmitEvent();
  const { formatDateTime } = useI18n();
  const code = widgetErrorCode(error);
  const rateLimited = isCreditApiError(error, 'RATE_LIMIT_EXCEEDED');
  const text = rateLimited ? t.RATE_LIMITED : t[code];
  const requestId = requestIdOf(error);
  const unlocksAt = unlocksAtOf(error);

  useEffect(() => {
    if (!report) return;
    emitEvent({
      name: 'error',
      data: {
        code,
        message: error instanceof Error ? error.message : String(error),
        ...(requestId ? { requestId } : {}),
      },
    });
  }, [error, code, requestId, report, emitEvent]);

  return (
    // A full screen moves focus to its heading; a panel-level error has no focus move, so it is announced as an alert.
    <div className="cw-error" role={level === 1 ? undefined : 'alert'} data-error-code={code}>
      <span className={`cw-error__icon cw-error__icon--${code === 'NETWORK_ERROR' ? 'offline' : 'alert'}`} aria-hidden="true">
        !
      </span>
      <ScreenHeader title={text.title} level={level} focusOnMount={level === 1} />
      <p>{text.body}</p>
      {code === 'VERIFICATION_LOCKED' && unlocksAt ? (
        <p className="cw-error__detail">{t.unlocksAt(formatDateTime(unlocksAt))}</p>
      ) : null}
      {onRetry && isRetryable(error) ? (
        <div>
          <Button onClick={onRetry}>{t.tryAgain}</Button>
        </div>
      ) : null}
      {(code === 'UNKNOWN' || code === 'SERVICE_UNAVAILABLE') && requestId ? (
        <p className="cw-muted cw-small">{t.reference(requestId)}</p>
      ) : null}
    </div>
  );
}
