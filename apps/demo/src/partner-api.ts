/**
 * The demo bank's server-side use of the Credit API, through `@credit/sdk`: what a real partner's backend
 * does. The client secret and the access token never reach the browser; only short-lived `ut_` user tokens do.
 */
import type { TAlertType, TSandboxClock, TUser } from '@credit/contract';
import { CreditApiError, CreditClient, CreditConnectionError, CreditError, CreditOAuthError } from '@credit/sdk';

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

export class PartnerApi {
  private readonly credit: CreditClient;

  constructor(
    private readonly apiUrl: string,
    clientId: string,
    clientSecret: string,
  ) {
    this.credit = new CreditClient({ baseUrl: apiUrl, clientId, clientSecret });
  }

  /** Runs one step against the API and words its failure for a customer of the bank. */
  private async attempt<T>(what: string, step: (credit: CreditClient) => Promise<T>): Promise<T> {
    try {
      return await step(this.credit);
    } catch (error) {
      throw this.describeFailure(error, what);
    }
  }

  private describeFailure(error: unknown, what: string): unknown {
    if (error instanceof CreditConnectionError) {
      return new PartnerApiError(`The Credit API at ${this.apiUrl} cannot be reached. Is it running?`, 502, 'NETWORK_ERROR');
    }
    if (error instanceof CreditOAuthError) {
      return new PartnerApiError(`The bank could not sign in to the Credit API: ${error.message}`, error.status, error.code);
    }
    if (error instanceof CreditApiError)
      return new PartnerApiError(`${what}: ${error.message}`, error.status, error.code, error.requestId);
    if (error instanceof CreditError) return new PartnerApiError(`${what}: ${error.message}`, 502, 'HTTP_ERROR');
    return error;
  }

  async mintUserToken(user: PartnerUser): Promise<string> {
    const { userToken } = await this.attempt('The bank could not get a user token', (credit) =>
      credit.mintUserToken({ externalUserId: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName }),
    );
    return userToken;
  }

  /** The API's record of the bank's customer (`userId`, `status`…), or null before they enrol. */
  async findEnrolledUser(externalUserId: string): Promise<TUser | null> {
    const page = await this.attempt('The bank could not look the customer up', (credit) =>
      credit.call('listUsers', { query: { externalUserId, limit: 1 } }),
    );
    return page.data[0] ?? null;
  }

  /** The API's id (`usr_…`) of the bank's customer, or null before they enrol. */
  async findEnrolledUserId(externalUserId: string): Promise<string | null> {
    return (await this.findEnrolledUser(externalUserId))?.userId ?? null;
  }

  /** Sandbox helpers need the `admin` scope and exist only in the sandbox. */
  refreshScore(userId: string): Promise<{ score: number; previousScore: number | null }> {
    return this.attempt('The score refresh failed', (credit) =>
      credit.call('sandboxRefreshScore', { params: { userId }, body: {} }),
    );
  }

  /**
   * The right answers, as text. The widget's session id never reaches the host page, but every session of
   * one person asks the same questions with the same choices (only order and option ids change), so the
   * answers of a fresh session started here read the same in the widget. An unanswered session counts for nothing.
   */
  async sandboxAnswers(userId: string): Promise<{ question: string; answer: string }[]> {
    const session = await this.attempt('The bank could not start a verification session', (credit) =>
      credit.call('getVerificationQuestions', { params: { userId } }),
    );
    const key = await this.attempt('The sandbox answers are not available', (credit) =>
      credit.call('sandboxGetVerificationAnswers', { params: { userId }, query: { sessionId: session.sessionId } }),
    );
    return session.questions.map((question) => {
      const answerId = key.answers.find((a) => a.questionId === question.questionId)?.answerId;
      return { question: question.text, answer: question.options.find((o) => o.id === answerId)?.text ?? '?' };
    });
  }

  createAlert(userId: string, type: TAlertType): Promise<{ alertId: string }> {
    return this.attempt('The test alert failed', (credit) =>
      credit.call('sandboxCreateAlert', { params: { userId }, body: { type } }),
    );
  }

  /** When the user's current consent ends (in the user's own time), or undefined when there is none. */
  async consentExpiresAt(userId: string): Promise<string | undefined> {
    const state = await this.attempt('The bank could not read the consent', (credit) =>
      credit.call('getConsent', { params: { userId } }),
    );
    return state.current?.expiresAt;
  }

  /** The current score, or null when there is none to read (a frozen file, say). */
  async currentScore(userId: string): Promise<number | null> {
    try {
      return (await this.credit.call('getCreditScore', { params: { userId } })).score;
    } catch (error) {
      if (error instanceof CreditApiError) return null;
      throw this.describeFailure(error, 'The bank could not read the score');
    }
  }

  /** How many alerts the user has that were created at or after `since` (the user's own time, a clock's for a clock user). */
  async alertsSince(userId: string, since: string): Promise<number> {
    const page = await this.attempt('The bank could not read the alerts', (credit) =>
      credit.call('listAlerts', { params: { userId }, query: { createdAfter: since, limit: 1 } }),
    );
    return page.pagination.total;
  }

  // Sandbox test clocks: a frozen time the attached users live at, moved forward by an advance.

  createClock(name: string): Promise<TSandboxClock> {
    return this.attempt('The bank could not create a test clock', (credit) =>
      credit.call('createSandboxClock', { body: { name } }),
    );
  }

  /** The bank's clock of this name, looking through at most `max` of its clocks (newest first). */
  async findClockByName(name: string, max = 1_000): Promise<TSandboxClock | null> {
    return this.attempt('The bank could not list its test clocks', async (credit) => {
      let seen = 0;
      for await (const clock of credit.list('listSandboxClocks', { query: { limit: 100 } })) {
        if (clock.name === name) return clock;
        if (++seen >= max) break;
      }
      return null;
    });
  }

  /** The clock, or null when it is gone (deleted, or pruned after 30 days unused). */
  async getClock(clockId: string): Promise<TSandboxClock | null> {
    try {
      return await this.credit.call('getSandboxClock', { params: { clockId } });
    } catch (error) {
      if (error instanceof CreditApiError && error.status === 404) return null;
      throw this.describeFailure(error, 'The bank could not read its test clock');
    }
  }

  /** Attaches the user; attaching a user already on this clock changes nothing. */
  attachToClock(clockId: string, userId: string): Promise<TSandboxClock> {
    return this.attempt('The customer could not be put on the test clock', (credit) =>
      credit.call('attachSandboxClockUsers', { params: { clockId }, body: { userIds: [userId] } }),
    );
  }

  advanceClock(clockId: string, frozenTime: Date): Promise<TSandboxClock> {
    return this.attempt('The test clock could not be advanced', (credit) =>
      credit.call('advanceSandboxClock', { params: { clockId }, body: { frozenTime: frozenTime.toISOString() } }),
    );
  }
}
