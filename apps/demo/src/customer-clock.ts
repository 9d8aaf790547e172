/**
 * "Advance one month" and "Advance one year": each demo customer lives on a sandbox test clock of their own,
 * created on first use and found again by its name, so the demo keeps no state a restart would lose. An advance
 * runs every monitoring period the customer skipped (a history point each, alerts, the new score), in the API's
 * worker; this waits until the clock is `ready` again, so the page can refresh the widget straight after.
 */
import type { TSandboxClock, TUser } from '@credit/contract';
import { type PartnerApi, PartnerApiError } from './partner-api.ts';

/** About a month, for messages and checks; the advances themselves move in calendar months. */
export const MONTH_MS = 30 * 86_400_000;

/**
 * Where an advance of `months` lands: the last moment of the calendar month `months - 1` after the customer's next
 * refresh (monitoring runs each calendar month on one day of it), so "one month" runs exactly that refresh and "one
 * year" the next twelve, whatever day of the month they fall on, unless the consent ends first. Without a next refresh (paused), months from the clock's time.
 */
export const advanceTarget = (
  frozenTime: string,
  nextRefreshAt: string | null,
  months: number,
  consentExpiresAt?: string,
): Date => {
  const from = new Date(Math.max(Date.parse(frozenTime), nextRefreshAt ? Date.parse(nextRefreshAt) : 0));
  const monthsOn = nextRefreshAt && Date.parse(nextRefreshAt) >= Date.parse(frozenTime) ? months - 1 : months;
  const endOfMonth = Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + monthsOn + 1, 1) - 1;
  // A year's consent covers the first pull and eleven monthly refreshes: the demo stops a minute before it ends, so
  // a press never lapses the customer's permission (the consent journey shows that on its own).
  const consentEnd = consentExpiresAt ? Date.parse(consentExpiresAt) - 60_000 : Number.POSITIVE_INFINITY;
  return new Date(Math.max(Date.parse(frozenTime) + 1, Math.min(endOfMonth, consentEnd)));
};

export interface ClockWait {
  /** Give up waiting for `ready` after this long. Default 90 s (24 months for 100 users take under a minute). */
  timeoutMs?: number;
  /** Look at the clock this often. Default 250 ms. */
  pollMs?: number;
}

/** The clock's name for a customer: ids are at most 64 characters, names 100. */
export const customerClockName = (customer: string) => `Maple Bank demo: ${customer}`;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const notVerified = (user: TUser) =>
  new PartnerApiError(
    user.status === 'locked'
      ? 'This customer is locked out of verification for now: only a verified customer can be moved in time.'
      : 'Verify your identity in the widget first: only a verified customer is monitored, so there is nothing to move in time yet.',
    409,
    'NOT_VERIFIED',
  );

export const customerClocks = (api: PartnerApi, wait: ClockWait = {}) => {
  const { timeoutMs = 90_000, pollMs = 250 } = wait;
  /** The customer's clock id, once known (a hint: the API is asked again when it is gone). */
  const known = new Map<string, string>();
  /** One advance at a time per customer: a second press waits for the first instead of racing it to a new clock. */
  const running = new Map<string, Promise<unknown>>();

  const waitUntilReady = async (clock: TSandboxClock): Promise<TSandboxClock> => {
    const deadline = Date.now() + timeoutMs;
    let current = clock;
    while (current.status !== 'ready') {
      if (Date.now() >= deadline) {
        throw new PartnerApiError(
          'The test clock is still advancing. Wait a little, then press Refresh score or reload the page.',
          504,
          'CLOCK_STILL_ADVANCING',
        );
      }
      await sleep(pollMs);
      const again = await api.getClock(current.clockId);
      if (!again) throw new PartnerApiError('The customer’s test clock was deleted while it advanced.', 409, 'CLOCK_GONE');
      current = again;
    }
    return current;
  };

  /** The customer's clock, ready, with the customer on it: created on first use. */
  const clockOf = async (customer: string, userId: string): Promise<TSandboxClock> => {
    const name = customerClockName(customer);
    const id = known.get(customer);
    const clock = (id ? await api.getClock(id) : null) ?? (await api.findClockByName(name)) ?? (await api.createClock(name));
    known.set(customer, clock.clockId);
    const ready = await waitUntilReady(clock);
    // Attaching a user already on this clock changes nothing; a user on another clock is the API's 400, in words.
    return api.attachToClock(ready.clockId, userId);
  };

  const advance = async (customer: string, months: number) => {
    const user = await api.findEnrolledUser(customer);
    if (!user) {
      throw new PartnerApiError('Enrol in the widget first: this customer has no credit profile yet.', 409, 'NOT_ENROLLED');
    }
    if (user.status !== 'active') throw notVerified(user);
    const clock = await clockOf(customer, user.userId);
    const from = clock.frozenTime;
    const before = await api.currentScore(user.userId);
    const advancing = await api.advanceClock(
      clock.clockId,
      advanceTarget(from, user.monitoring.nextRefreshAt, months, await api.consentExpiresAt(user.userId)),
    );
    const ready = await waitUntilReady(advancing);
    const [after, alerts] = await Promise.all([api.currentScore(user.userId), api.alertsSince(user.userId, from)]);
    return { clock: ready, from, before, after, alerts };
  };

  return {
    /** Moves the customer's clock `months` calendar months on and answers once every skipped period has run. */
    advance(customer: string, months: number): ReturnType<typeof advance> {
      const previous = running.get(customer) ?? Promise.resolve();
      const next = previous.catch(() => undefined).then(() => advance(customer, months));
      running.set(customer, next);
      void next
        .finally(() => {
          if (running.get(customer) === next) running.delete(customer);
        })
        .catch(() => undefined);
      return next;
    },
  };
};
