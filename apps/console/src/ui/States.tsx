import { isCreditApiError } from '@credit/sdk/browser';

/** What went wrong, in words a staff member can act on. */
export const describeError = (error: unknown): { title: string; advice: string; retry: boolean } => {
  if (isCreditApiError(error)) {
    switch (error.status) {
      case 400: {
        // The message names the first field; the others follow it, so every problem is said at once.
        const fields = error.details
          .slice(1)
          .map((d) => `${d.field}: ${d.message}`)
          .join('; ');
        return {
          title: 'The request was not accepted',
          advice: fields ? `${error.message} ${fields}.` : error.message,
          retry: false,
        };
      }
      case 401:
        return {
          title: 'Your console session has ended',
          advice: 'Open a new console link from your bank’s admin tools, then come back to this page.',
          retry: false,
        };
      case 403:
        return { title: 'Not allowed', advice: error.message, retry: false };
      case 404:
        return {
          title: 'Not found',
          advice: 'It may have been deleted, or it is not your bank’s. Check the id and search again.',
          retry: false,
        };
      case 429:
        return {
          title: 'Too many requests for now',
          advice: `Wait ${error.retryAfter ?? 60} seconds, then try again.`,
          retry: true,
        };
      default:
        return {
          title: 'The API could not answer',
          advice: `Try again in a minute. If it keeps failing, give your administrator this request id: ${error.requestId ?? 'none'}.`,
          retry: true,
        };
    }
  }
  return {
    title: 'The API could not be reached',
    advice: 'Check your network connection, then try again.',
    retry: true,
  };
};

export const Loading = ({ what }: { what: string }) => (
  <p className="state state-loading" role="status">
    Loading {what}…
  </p>
);

export const ErrorState = ({ error, retry }: { error: unknown; retry?: () => void }) => {
  const { title, advice, retry: worthRetrying } = describeError(error);
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">{title}</p>
      <p>{advice}</p>
      {retry && worthRetrying ? (
        <button type="button" className="button" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
};
