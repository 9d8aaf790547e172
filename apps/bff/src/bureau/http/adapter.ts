import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { ApiError } from '../../core/api-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type {
  BureauCallOptions,
  BureauProvider,
  CreditFile,
  CreditFileResult,
  CreditSubject,
  PullOptions,
  SimulatedScore,
  SimulationAction,
  TriggerFeed,
  TriggerPage,
} from '../provider.ts';
import {
  BUREAU_MAX_ANSWER_BYTES,
  BUREAU_PATHS,
  MAX_BUREAU_BATCH_PULLS,
  type TBureauFileRequest,
  toBureauRequest,
  toBureauSimulationRequest,
  ZBureauBatchPullFailed,
  ZBureauBatchPullOf,
  ZBureauCreditFileAnswer,
  ZBureauCreditFilesAnswer,
  ZBureauIdentityFileAnswer,
  ZBureauSimulationAnswer,
  ZBureauStopTriggersAnswer,
  ZBureauTriggerPage,
} from './contract.ts';
import {
  BureauAnswerError,
  BureauBusyError,
  type BureauFailureReason,
  BureauFault,
  BureauRateLimitedError,
  BureauShareExceededError,
  BureauUnavailableError,
} from './errors.ts';
import { BureauRateCap, type CapCall } from './rate-cap.ts';
import {
  AttemptTimeoutError,
  CircuitBreaker,
  CircuitOpenError,
  type CircuitState,
  withRetries,
  withTimeout,
} from './resilience.ts';
import { BureauTransport, type BureauTransportOptions, type RawAnswer } from './transport.ts';

/** Longest pause between two attempts, whatever the backoff draws. */
const MAX_RETRY_DELAY_MS = 5_000;

export interface HttpBureauOptions extends BureauTransportOptions {
  retries: number;
  retryBaseMs: number;
  breakerThreshold: number;
  breakerHalfOpenMs: number;
  maxPerSecond: number;
  /** Weights of clients in their class's split of the cap (BUREAU_CLIENT_WEIGHTS); 1 each when absent. */
  clientWeights?: ReadonlyMap<string, number>;
  /** The part of the cap monitoring keeps while interactive calls are active too (BUREAU_MONITORING_SHARE). */
  monitoringShare?: number;
  /** Monitoring pulls leave together in `/v1/credit-files` (BUREAU_BATCH_PULLS). */
  batchPulls?: boolean;
  logger: Logger;
  redis?: Redis;
  /** Drives the timeout, the backoff, the breaker's open time and the per-second cap: real time but in tests. */
  clock: Clock;
}

/** The client named for calls that name none (tools, tests): they share one bucket. */
const UNATTRIBUTED = 'unattributed';
/**
 * How many attempt timeouts a monitoring pull may wait for a slot: no person waits for it, and 4 × 5 s plus its attempt
 * still fits the quarter of the lease a pull is given (monitoring/scheduler.ts).
 */
const MONITORING_SLOT_WAIT = 4;

/** A monitoring pull waiting for the next batch: its request, and how its caller hears of its answer. */
interface BatchMember {
  payload: TBureauFileRequest;
  resolve(result: CreditFileResult): void;
  reject(error: unknown): void;
}

/** The batch was refused as a whole: the member sends its pull alone, in the slot it holds. */
class BatchRefusedError extends Error {}

/** Attempts worth repeating and counting against the bureau: 5xx/429/408, connection failures, timeouts. */
const isBureauFault = (error: unknown) => error instanceof BureauFault || error instanceof AttemptTimeoutError;

/** Where zod found the answer wrong: paths and issue codes only, never a value from the file. */
const issueFacts = (error: z.ZodError) => ({
  issues: error.issues.slice(0, 20).map((issue) => ({ path: issue.path.join('.'), code: issue.code })),
  issueCount: error.issues.length,
});

/**
 * The credit bureau over HTTP, speaking the JSON contract in ./contract.ts. Each call: wait for a slot
 * under BUREAU_MAX_PER_SECOND within its client's fair share (./rate-cap.ts, shared through Redis; a client over its
 * share until the deadline answers 429), then one attempt bounded by BUREAU_TIMEOUT_MS,
 * retried BUREAU_RETRIES times with decorrelated-jitter backoff on 5xx/429/timeouts/connection failures,
 * through a circuit breaker that opens after BUREAU_BREAKER_THRESHOLD consecutive failed attempts and lets a
 * test call through after BUREAU_BREAKER_HALF_OPEN_MS (./resilience.ts, on the injected clock). Every answer is validated with zod: a
 * malformed or partial file is refused whole. Failures throw BureauUnavailableError (503), so nothing
 * downstream stores anything.
 */
export class HttpBureau implements BureauProvider {
  readonly name = 'http';
  readonly #transport: BureauTransport;
  readonly #cap: BureauRateCap;
  readonly #breaker: CircuitBreaker;
  readonly #clock: Clock;
  readonly #retries: number;
  readonly #retryBaseMs: number;
  readonly #timeoutMs: number;
  readonly #halfOpenSeconds: number;
  readonly #logger: Logger;
  /** Whether monitoring pulls leave together: when asked, until the bureau refuses the first batch it is sent. */
  #batches: boolean;
  /** Whether a batch was ever answered: a refusal before that says the bureau takes none. */
  #batchAnswered = false;
  /** Monitoring pulls holding their slots, waiting to leave together. */
  #pending: BatchMember[] = [];

  constructor(options: HttpBureauOptions) {
    this.#transport = new BureauTransport(options);
    this.#batches = options.batchPulls ?? false;
    this.#timeoutMs = options.timeoutMs;
    this.#halfOpenSeconds = Math.max(1, Math.ceil(options.breakerHalfOpenMs / 1000));
    this.#logger = options.logger.child({ component: 'bureau', bureau: new URL(options.url).host });
    this.#clock = options.clock;
    this.#retries = options.retries;
    this.#retryBaseMs = options.retryBaseMs;
    this.#cap = new BureauRateCap({
      perSecond: options.maxPerSecond,
      // Per bureau host: two bureaus (or two test servers) never share a budget.
      keyPrefix: `bureau-cap:${new URL(options.url).host}`,
      redis: options.redis,
      clock: options.clock,
      weights: options.clientWeights,
      monitoringShare: options.monitoringShare,
    });
    this.#breaker = new CircuitBreaker(options.clock, {
      threshold: options.breakerThreshold,
      halfOpenAfterMs: options.breakerHalfOpenMs,
      counts: isBureauFault,
      onOpen: () => this.#logger.warn({ halfOpenAfterMs: options.breakerHalfOpenMs }, 'bureau circuit opened'),
      onClose: () => this.#logger.info('bureau circuit closed'),
    });
  }

  /** Closed, open, half-open: for health checks and tests. */
  get circuitState(): CircuitState {
    return this.#breaker.state;
  }

  /**
   * With BUREAU_BATCH_PULLS, a monitoring pull takes its own slot, retries and refusals as any call, but leaves with
   * the other monitoring pulls holding a slot at that moment, in one `/v1/credit-files` request (#sendBatch): a round
   * trip per batch instead of per customer. Interactive pulls (verification, refresh now) always go alone.
   */
  pullCreditFile(subject: CreditSubject, asOf: Date, options: PullOptions = {}): Promise<CreditFileResult> {
    const payload = toBureauRequest(subject, asOf, options.pullId, options.monitor);
    const batched = options.callClass === 'monitoring' && this.#batches ? () => this.#joinBatch(payload) : undefined;
    return this.#call('credit_file', BUREAU_PATHS.creditFile, subject.userId, options, payload, ZBureauCreditFileAnswer, batched);
  }

  #joinBatch(payload: TBureauFileRequest): Promise<CreditFileResult> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ payload, resolve, reject });
      if (this.#pending.length >= MAX_BUREAU_BATCH_PULLS) void this.#sendBatch();
      // Once the answers in hand are handled: every pull whose slot came with them joins this batch.
      else if (this.#pending.length === 1) setImmediate(() => void this.#sendBatch());
    });
  }

  /**
   * One request for the waiting pulls, through the breaker and the attempt timeout like a single call. Each answer is
   * checked to name its own pull and validated on its own: a file that breaks the contract or that the bureau could
   * not build fails only its own pull (the latter retried like a 5xx). A request that fails (5xx, timeout, answers not
   * matching the pulls) fails each pull as a single request's failure would. A batch refused as a whole (any other 4xx,
   * an answer over its size) sends its pulls alone at once; refused before any batch was answered, it ends batching.
   */
  async #sendBatch(): Promise<void> {
    const members = this.#pending.splice(0, MAX_BUREAU_BATCH_PULLS);
    if (members.length === 0) return;
    try {
      const { results } = await this.#breaker.execute(async () => {
        const answer = await withTimeout(this.#clock, this.#timeoutMs, (signal) =>
          this.#transport.post(
            BUREAU_PATHS.creditFiles,
            { pulls: members.map((member) => member.payload) },
            signal,
            members.length * BUREAU_MAX_ANSWER_BYTES,
          ),
        );
        return this.#parse(answer, ZBureauCreditFilesAnswer);
      });
      if (results.length !== members.length) {
        throw new BureauAnswerError('invalid_answer', { answers: results.length, pulls: members.length });
      }
      this.#batchAnswered = true;
      for (const [i, member] of members.entries()) this.#settleMember(member, results[i]);
    } catch (error) {
      const failure = this.#batchFailure(error);
      for (const member of members) member.reject(failure);
    }
  }

  #settleMember(member: BatchMember, item: unknown): void {
    const of = ZBureauBatchPullOf.safeParse(item);
    if (!of.success || of.data.reference !== member.payload.reference || of.data.pullId !== member.payload.pullId) {
      // A result for another pull (reordered, or one dropped): never handed to this customer.
      member.reject(new BureauAnswerError('invalid_answer', { batchResultFor: 'another_pull' }));
      return;
    }
    const parsed = ZBureauCreditFileAnswer.safeParse(item);
    if (parsed.success) member.resolve(parsed.data);
    else if (ZBureauBatchPullFailed.safeParse(item).success) member.reject(new BureauFault('bureau_error'));
    else member.reject(new BureauAnswerError('invalid_answer', issueFacts(parsed.error)));
  }

  #batchFailure(error: unknown): unknown {
    const refused = error instanceof BureauAnswerError && (error.reason === 'rejected' || error.facts.tooLarge === true);
    if (!refused) return error;
    if (!this.#batchAnswered && this.#batches) {
      this.#batches = false;
      this.#logger.info({ ...error.facts }, 'the bureau refused a batched pull; monitoring pulls go one by one');
    }
    return new BatchRefusedError();
  }

  async pullIdentityFile(subject: CreditSubject, asOf: Date, options: BureauCallOptions = {}): Promise<CreditFile> {
    const payload = toBureauRequest(subject, asOf);
    const answer = await this.#call(
      'identity_file',
      BUREAU_PATHS.identityFile,
      subject.userId,
      options,
      payload,
      ZBureauIdentityFileAnswer,
    );
    return answer.file;
  }

  /** Through the same cap, retries and breaker as a pull (it loads the same bureau), but with no pullId: never billed. */
  simulateScore(
    subject: CreditSubject,
    asOf: Date,
    actions: SimulationAction[],
    options: BureauCallOptions = {},
  ): Promise<SimulatedScore> {
    const payload = toBureauSimulationRequest(subject, asOf, actions);
    return this.#call(
      'score_simulation',
      BUREAU_PATHS.scoreSimulation,
      subject.userId,
      options,
      payload,
      ZBureauSimulationAnswer,
    );
  }

  /** The feed's reads and stops go through the same cap (as monitoring calls), retries and breaker as a pull. */
  readonly triggers: TriggerFeed = {
    read: (after, limit, options = {}): Promise<TriggerPage> =>
      this.#call(
        'triggers',
        BUREAU_PATHS.triggers,
        '',
        { callClass: 'monitoring', ...options },
        { after, limit },
        ZBureauTriggerPage,
      ),
    stop: async (references, options = {}) => {
      await this.#call(
        'stop_triggers',
        BUREAU_PATHS.stopTriggers,
        '',
        { callClass: 'monitoring', ...options },
        { references },
        ZBureauStopTriggersAnswer,
      );
    },
  };

  close(): Promise<void> {
    return this.#transport.close();
  }

  /**
   * One call: `userId` only names whose call it was in the log; `payload` is what is sent. The slot is
   * taken before the breaker, so a call waiting for its client's share never holds up a half-open circuit's trial.
   */
  async #call<T>(
    operation: string,
    path: string,
    userId: string,
    options: BureauCallOptions,
    payload: unknown,
    schema: z.ZodType<T>,
    /** Sends this attempt with others (a monitoring pull), once its slot is taken. */
    batched?: () => Promise<T>,
  ): Promise<T> {
    const call: CapCall = { clientId: options.clientId ?? UNATTRIBUTED, callClass: options.callClass ?? 'interactive' };
    try {
      return await withRetries(
        this.#clock,
        { retries: this.#retries, initialDelayMs: this.#retryBaseMs, maxDelayMs: MAX_RETRY_DELAY_MS, retriable: isBureauFault },
        async () => {
          if (this.#breaker.failsFast) throw new CircuitOpenError();
          const wait = call.callClass === 'monitoring' ? MONITORING_SLOT_WAIT * this.#timeoutMs : this.#timeoutMs;
          await this.#cap.take(this.#clock.now().getTime() + wait, call);
          if (batched && this.#batches) {
            try {
              return await batched();
            } catch (error) {
              if (!(error instanceof BatchRefusedError)) throw error;
            }
          }
          return this.#breaker.execute(async () => {
            const answer = await withTimeout(this.#clock, this.#timeoutMs, (signal) =>
              this.#transport.post(path, payload, signal),
            );
            return this.#parse(answer, schema);
          });
        },
      );
    } catch (error) {
      throw this.#failure(error, { operation, userId, ...call });
    }
  }

  #parse<T>(answer: RawAnswer, schema: z.ZodType<T>): T {
    let json: unknown;
    try {
      json = JSON.parse(answer.body);
    } catch {
      throw new BureauAnswerError('invalid_answer', { notJson: true, bytes: Buffer.byteLength(answer.body) });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new BureauAnswerError('invalid_answer', issueFacts(parsed.error));
    return parsed.data;
  }

  /**
   * The 503 the caller sees (429 for a client over its share), logged with what went wrong and whose call it was (the
   * internal user id and client id), no personal data.
   */
  #failure(error: unknown, about: { operation: string; userId: string } & CapCall): ApiError {
    if (error instanceof BureauShareExceededError) {
      // Debug: a partner flooding the bureau would otherwise write a line per refused call.
      this.#logger.debug({ ...about, retryAfter: error.retryAfterSeconds }, 'bureau call refused: client over its share');
      return new BureauRateLimitedError(error.retryAfterSeconds);
    }
    const fail = (reason: BureauFailureReason, facts: Record<string, unknown> = {}, retryAfter?: number) => {
      const level = reason === 'circuit_open' ? 'debug' : reason === 'rejected' || reason === 'invalid_answer' ? 'error' : 'warn';
      this.#logger[level]({ ...about, reason, ...facts }, 'bureau call failed');
      return new BureauUnavailableError(reason, retryAfter);
    };
    if (error instanceof CircuitOpenError) return fail('circuit_open', {}, this.#halfOpenSeconds);
    if (error instanceof AttemptTimeoutError) return fail('timeout', { timeoutMs: this.#timeoutMs });
    if (error instanceof BureauFault) return fail(error.reason, error.status ? { status: error.status } : {});
    if (error instanceof BureauAnswerError) return fail(error.reason, error.facts);
    if (error instanceof BureauBusyError) return fail('busy', {}, 1);
    // Not expected; the class name only, as the message of an unknown error could quote anything.
    return fail('network', { errorName: (error as Error | undefined)?.name ?? typeof error });
  }
}

/** The adapter for BUREAU_URL, or undefined when none is configured. Reads the certificate files once, at start. */
export const httpBureauFromConfig = (config: Config, logger: Logger, clock: Clock, redis?: Redis): HttpBureau | undefined => {
  if (!config.BUREAU_URL) return undefined;
  const pem = (file: string | undefined) => (file ? readFileSync(file, 'utf8') : undefined);
  return new HttpBureau({
    url: config.BUREAU_URL,
    apiKey: config.BUREAU_API_KEY,
    clientCert: pem(config.BUREAU_CLIENT_CERT),
    clientKey: pem(config.BUREAU_CLIENT_KEY),
    ca: pem(config.BUREAU_CA_FILE),
    timeoutMs: config.BUREAU_TIMEOUT_MS,
    retries: config.BUREAU_RETRIES,
    retryBaseMs: config.BUREAU_RETRY_BASE_MS,
    breakerThreshold: config.BUREAU_BREAKER_THRESHOLD,
    breakerHalfOpenMs: config.BUREAU_BREAKER_HALF_OPEN_MS,
    maxPerSecond: config.BUREAU_MAX_PER_SECOND,
    clientWeights: config.BUREAU_CLIENT_WEIGHTS,
    monitoringShare: config.BUREAU_MONITORING_SHARE,
    batchPulls: config.BUREAU_BATCH_PULLS,
    logger,
    redis,
    clock,
  });
};
