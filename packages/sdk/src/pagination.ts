import type { Page } from './operations.ts';

/**
 * Every item of a cursor list, fetched a page at a time as the loop asks for more:
 * `for await (const user of client.list('listUsers'))`. `pages()` walks the pages themselves.
 */
export class AutoPaginator<Item> implements AsyncIterable<Item> {
  constructor(
    private readonly fetchPage: (cursor: string | undefined) => Promise<Page<Item>>,
    private readonly firstCursor?: string,
  ) {}

  async *pages(): AsyncGenerator<Page<Item>, void, undefined> {
    let cursor = this.firstCursor;
    for (;;) {
      const page = await this.fetchPage(cursor);
      yield page;
      const next = page.pagination.hasMore ? page.pagination.nextCursor : null;
      // A cursor that does not move would loop for ever; the list ends there instead.
      if (!next || next === cursor) return;
      cursor = next;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** The items in one array, at most `max` of them (guards against loading a huge list by accident). */
  async toArray({ max }: { max: number }): Promise<Item[]> {
    const items: Item[] = [];
    if (max <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }
}
