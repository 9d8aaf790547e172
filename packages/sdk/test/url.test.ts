import { describe, expect, it } from 'vitest';
import { fillPath, joinUrl, queryString } from '../src/url.ts';

describe('request URLs', () => {
  it('fills and encodes path parameters, and refuses a missing one', () => {
    expect(fillPath('/v1/users/{userId}/offers/{offerId}', { userId: 'usr_a/b', offerId: 'off_1' })).toBe(
      '/v1/users/usr_a%2Fb/offers/off_1',
    );
    expect(() => fillPath('/v1/users/{userId}', {})).toThrow('Missing path parameter "userId"');
  });

  it('writes only defined query values', () => {
    expect(queryString({ limit: 5, cursor: undefined, status: 'active', createdAfter: new Date(0) })).toBe(
      '?limit=5&status=active&createdAfter=1970-01-01T00%3A00%3A00.000Z',
    );
    expect(queryString({})).toBe('');
  });

  it('joins base and path with one slash, and keeps a same-origin base empty', () => {
    expect(joinUrl('https://api.test/', '/v1/users')).toBe('https://api.test/v1/users');
    expect(joinUrl('', '/v1/users')).toBe('/v1/users');
  });
});
