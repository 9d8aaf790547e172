/**
 * The demo bank's server-side client of the Credit API: what a real partner's backend does. The client
 * secret and the access token never reach the browser; only short-lived `ut_` user tokens do.
 */

/** An error the page can show as is: what failed, in words, and the API's request id when there is one. */
export class PartnerApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly requestId?: string,
  ) {
    super(message);
  }
}

export interface PartnerUser {
  /** The bank's own id for its customer (`externalUserId` at the API). */
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

interface ApiErrorBody {
  error?: { code?: string; message?: string };
  meta?: { requestId?: string };
  error_description?: string;
}

/** Re-mint this long before the access token's stated expiry, so a request never leaves with a dying token. */
const EXPIRY_MARGIN_MS = 60_000;

const describeFailure = async (response: Response, what: string): Promise<PartnerApiError> => {
  const text = await response.text().catch(() => '');
  let body: ApiErrorBody = {};
  try {
    body = JSON.parse(text) as ApiErrorBody;
  } catch {}
  const detail = body.error?.message ?? body.error_description ?? `HTTP ${response.status}`;
  const code = body.error?.code ?? (typeof (body as { error?: unknown }).error === 'string' ? String(body.error) : 'HTTP_ERROR');
  return new PartnerApiError(`${what}: ${detail}`, response.status, code, body.meta?.requestId);
};

export class PartnerApi {
  private accessToken: { value: string; expiresAt: number } | null = null;
  private pendingAccessToken: Promise<string> | null = null;

  constructor(
    private readonly apiUrl: string,
    private readonly clientId: string,
    private readonly clientSecret: string,
  ) {}

  /** Client credentials, cached until shortly before expiry; concurrent callers share one request. */
  private async getAccessToken(): Promise<string> {
    if (this.accessToken && Date.now() < this.accessToken.expiresAt) return this.accessToken.value;
    this.pendingAccessToken ??= this.mintAccessToken().finally(() => {
      this.pendingAccessToken = null;
    });
    return this.pendingAccessToken;
  }

  private async mintAccessToken(): Promise<string> {
    const response = await this.send(`${this.apiUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: this.clientId, client_secret: this.clientSecret }),
    });
    if (!response.ok) throw await describeFailure(response, 'The bank could not sign in to the Credit API');
    const body = (await response.json()) as { access_token: string; expires_in: number };
    this.accessToken = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 - EXPIRY_MARGIN_MS };
    return body.access_token;
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, init);
    } catch {
      throw new PartnerApiError(`The Credit API at ${this.apiUrl} cannot be reached. Is it running?`, 502, 'NETWORK_ERROR');
    }
  }

  /** A call with the access token; a 401 (revoked or rotated) drops the cached token and tries once more. */
  private async call<T>(method: string, path: string, what: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.getAccessToken();
      const response = await this.send(`${this.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status === 401 && attempt === 0) {
        this.accessToken = null;
        continue;
      }
      if (!response.ok) throw await describeFailure(response, what);
      return ((await response.json()) as { data: T }).data;
    }
  }

  async mintUserToken(user: PartnerUser): Promise<string> {
    const data = await this.call<{ userToken: string }>('POST', '/v1/auth/user-token', 'The bank could not get a user token', {
      userId: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
    });
    return data.userToken;
  }

  /** The API's id (`usr_…`) of the bank's customer, or null before they enrol. */
  async findEnrolledUserId(externalUserId: string): Promise<string | null> {
    const users = await this.call<{ userId: string }[]>(
      'GET',
      `/v1/users?externalUserId=${encodeURIComponent(externalUserId)}&limit=1`,
      'The bank could not look the customer up',
    );
    return users[0]?.userId ?? null;
  }

  /** Sandbox helpers need the `admin` scope and exist only in the sandbox. */
  refreshScore(userId: string): Promise<{ score: number; previousScore: number | null }> {
    return this.call('POST', `/v1/sandbox/users/${encodeURIComponent(userId)}/score-refresh`, 'The score refresh failed', {});
  }

  /**
   * The right answers, as text. The widget's session id never reaches the host page, but every session of
   * one person asks the same questions with the same choices (only order and option ids change), so the
   * answers of a fresh session started here read the same in the widget. An unanswered session counts for nothing.
   */
  async sandboxAnswers(userId: string): Promise<{ question: string; answer: string }[]> {
    const userPath = `/users/${encodeURIComponent(userId)}`;
    const session = await this.call<{
      sessionId: string;
      questions: { questionId: string; text: string; options: { id: string; text: string }[] }[];
    }>('GET', `/v1${userPath}/verification/questions`, 'The bank could not start a verification session');
    const key = await this.call<{ answers: { questionId: string; answerId: string }[] }>(
      'GET',
      `/v1/sandbox${userPath}/verification/answers?sessionId=${encodeURIComponent(session.sessionId)}`,
      'The sandbox answers are not available',
    );
    return session.questions.map((question) => {
      const answerId = key.answers.find((a) => a.questionId === question.questionId)?.answerId;
      return { question: question.text, answer: question.options.find((o) => o.id === answerId)?.text ?? '?' };
    });
  }

  createAlert(userId: string, type: string): Promise<{ alertId: string }> {
    return this.call('POST', `/v1/sandbox/users/${encodeURIComponent(userId)}/alerts`, 'The test alert failed', { type });
  }
}
