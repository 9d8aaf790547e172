import type { CreditClient } from '@credit/sdk';
import { verifyInSandbox } from './verify-in-sandbox.js';

/** Asks `check` every half second until it answers something, for at most `timeoutMs`. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    const found = await check();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/**
 * Sandbox only: a year of credit monitoring for a new customer, in seconds. The customer uses the `1001` story (every
 * alert type within twelve monthly refreshes); a test clock runs the twelve refreshes the year would have run.
 */
export async function aYearOnAClock(credit: CreditClient) {
  // 1. A verified 1001 customer. Their first refresh runs right after verification, in real time: wait for it, so the
  //    clock runs only the refreshes after it.
  const { userId } = await credit.call('enrollUser', {
    body: {
      externalUserId: `clock-test-${Date.now()}`,
      email: 'story@example.com',
      firstName: 'Story',
      lastName: 'Teller',
      ssn: '1001',
      dateOfBirth: '1985-04-12',
      address: { street: '1 Story Lane', city: 'Springfield', state: 'IL', zipCode: '62701' },
    },
  });
  await verifyInSandbox(credit, userId);
  await waitFor('the first refresh', async () => {
    const user = await credit.call('getUser', { params: { userId } });
    return user.monitoring.lastRefreshedAt ?? undefined;
  });
  const before = await credit.call('listCreditScoreHistory', { params: { userId }, query: { months: 84 } });

  // 2. A clock frozen at the current time, with the customer on it: from now on they live at the clock's time.
  const created = await credit.call('createSandboxClock', { body: { name: 'A year of the 1001 story' } });
  const { clockId } = created;
  await credit.call('attachSandboxClockUsers', { params: { clockId }, body: { userIds: [userId] } });

  // 3. Twelve months on. The answer is `advancing`: wait until it is `ready` (or for the sandbox.clock.ready webhook).
  const target = new Date(created.frozenTime);
  target.setUTCMonth(target.getUTCMonth() + 12);
  await credit.call('advanceSandboxClock', { params: { clockId }, body: { frozenTime: target.toISOString() } });
  const clock = await waitFor('the clock to be ready', async () => {
    const current = await credit.call('getSandboxClock', { params: { clockId } });
    return current.status === 'ready' ? current : undefined;
  });

  // 4. What the year left: a history point per monthly refresh, and the alerts, dated in clock time.
  const after = await credit.call('listCreditScoreHistory', { params: { userId }, query: { months: 84 } });
  const alertTypes = new Set<string>();
  for await (const alert of credit.list('listAlerts', { params: { userId }, query: { limit: 100 } })) alertTypes.add(alert.type);
  const newHistoryPoints = after.pagination.total - before.pagination.total;
  console.log(`${clock.frozenTime}: ${newHistoryPoints} new history points; alerts: ${[...alertTypes].sort().join(', ')}`);

  // 5. Clean up: deleting the clock deletes the users on it.
  await credit.call('deleteSandboxClock', { params: { clockId } });
  return { userId, clockId, frozenTime: clock.frozenTime, newHistoryPoints, alertTypes: [...alertTypes].sort() };
}
