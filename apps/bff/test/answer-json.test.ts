import { describe, expect, it } from 'vitest';
import { sharedAnswerData } from '../src/core/shared-answer.ts';
import { answerBytes } from '../src/http/route.ts';

const answerJson = (body: unknown) => String(answerBytes(body));

/** An answer whose data is shared between requests (marked) reuses its JSON; the bytes stay JSON.stringify's. */
describe('answerBytes', () => {
  const items = sharedAnswerData([{ offerId: 'off_1', apr: { min: 1.5, max: 2 } }, { offerId: 'off_2' }]);

  it('writes what JSON.stringify writes, for shared and unshared data, lists and single resources', () => {
    const bodies = [
      { data: items, pagination: { hasMore: true, nextCursor: 'abc', total: 9 }, meta: { requestId: 'req_1' } },
      { data: items, meta: { requestId: 'req_2', timestamp: '2026-11-26T00:00:00.000Z' } },
      { data: items },
      { data: sharedAnswerData({ street: '1••• M•••• Street', creditor: 'Crédit “Agricole”' }), meta: { requestId: 'req_4' } },
      { data: { userId: 'usr_1', name: 'Ann "Q"' }, meta: { requestId: 'req_3' } },
      { error: { code: 'NOT_FOUND', message: 'No such user.' } },
    ];
    for (const body of bodies) expect(answerJson(body)).toBe(JSON.stringify(body));
  });

  it('serialises unmarked data every time, frozen or not: a change deep inside shows in the next answer', () => {
    const nested = { apr: { min: 1 } };
    const frozen = Object.freeze([Object.freeze(nested)]);
    expect(answerJson({ data: frozen })).toBe('{"data":[{"apr":{"min":1}}]}');
    nested.apr.min = 2;
    expect(answerJson({ data: frozen })).toBe('{"data":[{"apr":{"min":2}}]}');
  });

  it('serialises the rest of the envelope per answer: two requests, one data, two request ids', () => {
    const first = JSON.parse(answerJson({ data: items, meta: { requestId: 'req_a' } }));
    const second = JSON.parse(answerJson({ data: items, meta: { requestId: 'req_b' } }));
    expect([first.meta.requestId, second.meta.requestId]).toEqual(['req_a', 'req_b']);
    expect(second.data).toEqual(first.data);
  });
});
