// @vitest-environment happy-dom
import { WIDGET_CSRF_HEADER } from '@credit/contract/widget-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { WidgetError } from '../src/errors/widget-error.ts';
import { createFrame, flush } from './frame-harness.ts';

let frame: ReturnType<typeof createFrame>;
afterEach(() => frame?.services.bridge.close());

/** A frame with a live session started from `ut_sbx_first`, as boot leaves it. */
const startedFrame = async () => {
  frame = createFrame();
  void frame.services.bridge.connect();
  frame.api.issueToken('ut_sbx_first');
  await frame.services.session.start('ut_sbx_first');
  return frame;
};

/** The fake API answers `GET /v1/me` with the CSRF token of the session that asked. */
const servedTo = (user: object) => (user as { servedTo?: string }).servedTo;

const sessionsStarted = () => frame.api.requests.filter((r) => r.method === 'POST' && r.path === '/widget/session');

describe('token refresh', () => {
  it('renews once for calls that fail together, with the token the host sends', async () => {
    const { host, api, services } = await startedFrame();
    const renewals = [services.refresher.refresh(), services.refresher.refresh(), services.refresher.refresh()];
    expect(host.sent('token_request')).toHaveLength(1);
    api.issueToken('ut_sbx_second');
    host.send('token', { userToken: 'ut_sbx_second' });
    const sessions = await Promise.all(renewals);
    expect(new Set(sessions).size).toBe(1);
    expect(services.session.current()).toBe(sessions[0]);
    expect(sessions[0]?.csrfToken).toBe('csrf_ut_sbx_second');
    expect(sessionsStarted().map((r) => r.headers.authorization)).toEqual(['Bearer ut_sbx_first', 'Bearer ut_sbx_second']);
    // Cookie mode: the frame keeps no token once the cookie works.
    expect(sessions[0]?.userToken).toBeNull();
  });

  it('expires the session for good when the host has no token, until the customer retries', async () => {
    const { host, services } = await startedFrame();
    const expiredErrors: WidgetError[] = [];
    services.refresher.onExpired((error) => expiredErrors.push(error));
    const renewal = services.refresher.refresh();
    host.send('token_unavailable', {});
    await expect(renewal).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    expect(expiredErrors.map((error) => error.code)).toEqual(['INVALID_TOKEN']);

    await expect(services.refresher.refresh()).rejects.toBeInstanceOf(WidgetError);
    expect(host.sent('token_request')).toHaveLength(1);

    services.refresher.clearExpired();
    void services.refresher.refresh().catch(() => {});
    expect(host.sent('token_request')).toHaveLength(2);
  });
});

describe('a 401 from the API', () => {
  it('renews the session through the host and repeats the call once, with the new session', async () => {
    const { host, api, services } = await startedFrame();
    api.expire();
    const call = services.api.call('getMe');
    await flush();
    expect(host.sent('token_request')).toHaveLength(1);
    api.issueToken('ut_sbx_second');
    host.send('token', { userToken: 'ut_sbx_second' });
    expect(servedTo(await call)).toBe('csrf_ut_sbx_second');
    const calls = api.requests.filter((r) => r.path === '/v1/me').map((r) => r.headers[WIDGET_CSRF_HEADER]);
    expect(calls).toEqual(['csrf_ut_sbx_first', 'csrf_ut_sbx_second']);
  });

  it('shows the expired-session error when the host has no token, without a second request', async () => {
    const { host, api, services } = await startedFrame();
    api.expire();
    const call = services.api.call('getMe');
    await flush();
    host.send('token_unavailable', {});
    await expect(call).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    expect(api.requests.filter((r) => r.path === '/v1/me')).toHaveLength(1);
  });

  it('lets a call that fails late use the session another call already renewed', async () => {
    const { host, api, services } = await startedFrame();
    const staleSession = services.session.current();
    api.expire();
    const first = services.api.call('getMe');
    await flush();
    api.issueToken('ut_sbx_second');
    host.send('token', { userToken: 'ut_sbx_second' });
    await first;
    expect(services.session.current()).not.toBe(staleSession);
    // A call sent with the old session answers 401 only now: it retries with the new one, asking the host nothing.
    const late = await services.api.call('getMe');
    expect(servedTo(late)).toBe('csrf_ut_sbx_second');
    expect(host.sent('token_request')).toHaveLength(1);
  });

  it('is not a renewal when the API refuses the customer rather than the session', async () => {
    const { host, services } = await startedFrame();
    await expect(services.api.call('getUser', { params: { userId: 'usr_other' } })).rejects.toMatchObject({
      status: 403,
      code: 'AUTHORIZATION_ERROR',
    });
    expect(host.sent('token_request')).toHaveLength(0);
  });
});
