import type { deleteUser, getUser, listUsers, TPagination } from '@credit/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { HandlerResult } from '../src/http/route.ts';

// Checked by `pnpm typecheck` (tsc over test/): each @ts-expect-error fails the build if the line compiles.
const page: TPagination = { hasMore: false, nextCursor: null, total: 0 };

describe('HandlerResult<Op>: a handler answers only what its operation’s success schema describes', () => {
  it('types data by the schema, lists with pagination, and the extra meta', () => {
    // @ts-expect-error a field the User schema does not describe
    const unknownField: HandlerResult<typeof getUser> = { data: { nope: 1 } };
    // @ts-expect-error a list answers items of the schema
    const wrongItems: HandlerResult<typeof listUsers> = { data: [{ nope: 1 }], pagination: page };
    // @ts-expect-error a list answers its pagination
    const noPagination: HandlerResult<typeof listUsers> = { data: [] };
    // @ts-expect-error not the DeletedUser shape
    const wrongShape: HandlerResult<typeof deleteUser> = { data: 1 };
    expectTypeOf<HandlerResult<typeof listUsers>>().toHaveProperty('pagination').toEqualTypeOf<TPagination>();
    expect([unknownField, wrongItems, noPagination, wrongShape]).toHaveLength(4);
  });
});
