import { describe, expect, expectTypeOf, it } from 'vitest';
import { CreditClient as BrowserCreditClient } from '../src/browser.ts';
import {
  bearerAuth,
  type CallArgs,
  type CallResult,
  CreditClient,
  type ListItem,
  type UserTokenOperationId,
} from '../src/index.ts';
import { SERVER_ROUTES, USER_TOKEN_ROUTES } from '../src/routes.generated.ts';

const CLOCK_OPERATIONS = [
  'createSandboxClock',
  'listSandboxClocks',
  'getSandboxClock',
  'attachSandboxClockUsers',
  'advanceSandboxClock',
  'deleteSandboxClock',
] as const;

/** A fetch that answers every request with `body` and records what was asked. */
const answering = (status: number, body?: unknown) => {
  const asked: { method: string; url: string; headers: Headers; body: unknown }[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    asked.push({ method: init?.method ?? 'GET', url: String(input), headers, body: init?.body && JSON.parse(String(init.body)) });
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: body === undefined ? {} : { 'content-type': 'application/json', 'x-request-id': 'req_1' },
    });
  };
  return { asked, fetch };
};

const clock = {
  clockId: 'clk_7Rt2mQ9xK4vB1nL6',
  name: 'A year',
  frozenTime: '2026-01-01T00:00:00.000Z',
  status: 'advancing',
  userCount: 1,
  pausedUsers: [],
  createdAt: '2026-01-01T00:00:00.000Z',
};
const meta = { requestId: 'req_1', timestamp: '2026-01-01T00:00:00.000Z' };

describe('the sandbox clock operations in @credit/sdk', () => {
  it('are server operations: the browser entry (user tokens) has none of them', async () => {
    for (const id of CLOCK_OPERATIONS) {
      expect(SERVER_ROUTES).toHaveProperty(id);
      expect(USER_TOKEN_ROUTES).not.toHaveProperty(id);
    }
    expectTypeOf<(typeof CLOCK_OPERATIONS)[number]>().not.toExtend<UserTokenOperationId>();
    const { asked, fetch } = answering(200, { data: clock, meta });
    const browser = new BrowserCreditClient({ baseUrl: 'https://api.test', auth: bearerAuth(() => 'ut_x'), fetch });
    // @ts-expect-error: a user token cannot call sandbox routes, so the browser client does not offer them.
    await expect(browser.call('getSandboxClock', { params: { clockId: clock.clockId } })).rejects.toThrow(/Unknown operation/);
    expect(asked).toEqual([]);
  });

  it('are typed from the contract: arguments, the clock, a page of clocks, nothing for a delete', () => {
    expectTypeOf<CallArgs<'advanceSandboxClock'>['body']>().toEqualTypeOf<{ frozenTime: string }>();
    expectTypeOf<CallArgs<'attachSandboxClockUsers'>['params']>().toEqualTypeOf<{ clockId: string }>();
    expectTypeOf<CallResult<'createSandboxClock'>['status']>().toEqualTypeOf<'ready' | 'advancing'>();
    expectTypeOf<CallResult<'getSandboxClock'>['name']>().toEqualTypeOf<string | null>();
    expectTypeOf<ListItem<'listSandboxClocks'>['userCount']>().toEqualTypeOf<number>();
    expectTypeOf<CallResult<'deleteSandboxClock'>>().toEqualTypeOf<undefined>();
    // Compiled, never run: the create body is optional (both its fields are); an advance needs its target time.
    const compiles = (credit: CreditClient) => {
      void credit.call('createSandboxClock');
      // @ts-expect-error: an advance without its body
      void credit.call('advanceSandboxClock', { params: { clockId: clock.clockId } });
      // @ts-expect-error: a field the contract does not know
      void credit.call('createSandboxClock', { body: { frozenTime: clock.frozenTime, speed: 2 } });
    };
    expect(compiles).toBeTypeOf('function');
  });

  it('send an advance as the contract says, with an Idempotency-Key, and read the clock back validated', async () => {
    const { asked, fetch } = answering(202, { data: clock, meta });
    const credit = new CreditClient({ baseUrl: 'https://api.test', auth: bearerAuth(() => 'at_x'), fetch });
    const answered = await credit.call('advanceSandboxClock', {
      params: { clockId: clock.clockId },
      body: { frozenTime: '2027-01-01T00:00:00.000Z' },
    });
    expect(answered).toEqual(clock);
    expect(asked[0]).toMatchObject({
      method: 'POST',
      url: `https://api.test/v1/sandbox/clocks/${clock.clockId}/advance`,
      body: { frozenTime: '2027-01-01T00:00:00.000Z' },
    });
    expect(asked[0]?.headers.get('idempotency-key')).toBeTruthy();
  });
});
