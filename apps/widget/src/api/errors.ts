/** A failed API call, as the screens see it: the API's error code, or NETWORK_ERROR when no answer came. */
export class WidgetApiError extends Error {
  status: number;
  code: string;
  details?: { field: string; message: string }[];
  requestId?: string;
  unlocksAt?: string;
  retryAfter?: number;

  constructor(
    status: number,
    code: string,
    message: string,
    extra: { details?: { field: string; message: string }[]; requestId?: string; unlocksAt?: string; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = 'WidgetApiError';
    this.status = status;
    this.code = code;
    if (extra.details) this.details = extra.details;
    if (extra.requestId) this.requestId = extra.requestId;
    if (extra.unlocksAt) this.unlocksAt = extra.unlocksAt;
    if (extra.retryAfter !== undefined) this.retryAfter = extra.retryAfter;
  }
}

interface ErrorBodyShape {
  error?: { code?: unknown; message?: unknown; details?: unknown; unlocksAt?: unknown; retryAfter?: unknown };
  meta?: { requestId?: unknown };
}

const asDetails = (value: unknown): { field: string; message: string }[] | undefined => {
  if (!Array.isArray(value)) return undefined;
  return value
    .filter((d): d is { field: string; message: string } => typeof d?.field === 'string' && typeof d?.message === 'string')
    .map((d) => ({ field: d.field, message: d.message }));
};

/** Reads the API's error envelope; a body of another shape (a proxy's HTML page) still yields a usable error. */
export const errorFromResponse = async (response: Response): Promise<WidgetApiError> => {
  let body: ErrorBodyShape | null = null;
  try {
    body = (await response.json()) as ErrorBodyShape;
  } catch {
    body = null;
  }
  const error = body?.error;
  const code = typeof error?.code === 'string' ? error.code : response.status >= 500 ? 'SERVICE_UNAVAILABLE' : 'UNKNOWN';
  const message = typeof error?.message === 'string' ? error.message : `Request failed with status ${response.status}`;
  const requestId =
    typeof body?.meta?.requestId === 'string' ? body.meta.requestId : (response.headers.get('x-request-id') ?? undefined);
  return new WidgetApiError(response.status, code, message, {
    details: asDetails(error?.details),
    requestId,
    unlocksAt: typeof error?.unlocksAt === 'string' ? error.unlocksAt : undefined,
    retryAfter: typeof error?.retryAfter === 'number' ? error.retryAfter : undefined,
  });
};

export const networkError = (cause: unknown): WidgetApiError =>
  new WidgetApiError(0, 'NETWORK_ERROR', cause instanceof Error ? cause.message : 'The network request failed');

export const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';
