import { isCreditApiError } from '@credit/sdk/browser';
import { useMessages } from '../i18n.tsx';
import { type StateMessages, stateMessages } from '../messages.ts';

/** What went wrong, in words a staff member can act on, in the page's language (`t`: its state strings). */
export const describeError = (error: unknown, t: StateMessages): { title: string; advice: string; retry: boolean } => {
  if (isCreditApiError(error)) {
    switch (error.status) {
      case 400: {
        // The message names the first field; the others follow it, so every problem is said at once.
        const fields = error.details
          .slice(1)
          .map((d) => `${d.field}: ${d.message}`)
          .join('; ');
        return { title: t.notAccepted, advice: fields ? `${error.message} ${fields}.` : error.message, retry: false };
      }
      case 401:
        return { title: t.ended, advice: t.endedAdvice, retry: false };
      case 403:
        return { title: t.notAllowed, advice: error.message, retry: false };
      case 404:
        return { title: t.notFound, advice: t.notFoundAdvice, retry: false };
      case 429:
        return { title: t.tooMany, advice: t.tooManyAdvice(error.retryAfter ?? 60), retry: true };
      default:
        return { title: t.failed, advice: t.failedAdvice(error.requestId ?? 'none'), retry: true };
    }
  }
  return { title: t.unreachable, advice: t.unreachableAdvice, retry: true };
};

export const Loading = ({ what }: { what: string }) => {
  const t = useMessages(stateMessages);
  return (
    <p className="state state-loading" role="status">
      {t.loading(what)}
    </p>
  );
};

export const ErrorState = ({ error, retry }: { error: unknown; retry?: () => void }) => {
  const t = useMessages(stateMessages);
  const { title, advice, retry: worthRetrying } = describeError(error, t);
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">{title}</p>
      <p>{advice}</p>
      {retry && worthRetrying ? (
        <button type="button" className="button" onClick={retry}>
          {t.tryAgain}
        </button>
      ) : null}
    </div>
  );
};
