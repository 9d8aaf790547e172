import type { TTokenResponse } from '@credit/contract';
import { describe, expect, it } from 'vitest';
import { ClientCredentialsAuth, tokenRenewAt } from '../src/access-token.ts';

describe('tokenRenewAt', () => {
  it('renews a margin before expiry, but never in the first half of the lifetime', () => {
    expect(tokenRenewAt(1_000, 3600, 60_000)).toBe(1_000 + 3_540_000);
    expect(tokenRenewAt(1_000, 60, 60_000)).toBe(1_000 + 30_000);
  });
});

describe('ClientCredentialsAuth', () => {
  const issuing = () => {
    let issued = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const requestToken = async (): Promise<TTokenResponse> => {
      issued += 1;
      const token = `tok_${issued}`;
      await gate;
      return { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: 'read' };
    };
    return { requestToken, release, issued: () => issued };
  };

  it('shares one token request among concurrent callers, then serves the cache until the renewal time', async () => {
    let now = 0;
    const tokens = issuing();
    const auth = new ClientCredentialsAuth(tokens.requestToken, () => now, 60_000);
    const pending = Promise.all([auth.token(), auth.token(), auth.token()]);
    tokens.release();
    expect(await pending).toEqual(['tok_1', 'tok_1', 'tok_1']);
    now = 3_539_999;
    expect(await auth.token()).toBe('tok_1');
    now = 3_540_000;
    expect(await auth.token()).toBe('tok_2');
    expect(tokens.issued()).toBe(2);
  });

  it('drops only the token that was refused', async () => {
    const tokens = issuing();
    tokens.release();
    const auth = new ClientCredentialsAuth(tokens.requestToken, () => 0);
    const first = await auth.headers();
    auth.renew({ authorization: 'Bearer some-older-token' });
    expect(await auth.headers()).toEqual(first);
    auth.renew(first);
    expect(await auth.headers()).toEqual({ authorization: 'Bearer tok_2' });
  });
});
