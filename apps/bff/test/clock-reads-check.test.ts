import { describe, expect, it } from 'vitest';
import { clockReadsIn, clockReadsUnder } from '../../../scripts/check-clock-reads.ts';
import { REPO as repo, scriptOnTree } from './helpers/script-tree.ts';

const CLOCK = 'export const systemClock = { now: () => new Date(), at: () => Date.now() };\n';
const onTree = scriptOnTree('scripts/check-clock-reads.ts');

/** scripts/check-clock-reads.ts (part of pnpm lint) over a tree holding the clock's own file and `files`. */
const checkTree = (files: Record<string, string>) => onTree({ 'apps/bff/src/lib/clock.ts': CLOCK, ...files });

const readsOf = (text: string) => clockReadsIn('apps/bff/src/x.ts', text).map((r) => `${r.line}:${r.column}`);

describe('the clock-reads check (scripts/check-clock-reads.ts, part of pnpm lint)', () => {
  it('passes a tree whose only reads are in the clock, and conversions of a given instant anywhere', async () => {
    const result = await checkTree({
      'apps/bff/src/modules/x/service.ts':
        'export const at = (ctx: { clock: { now(): Date } }) => new Date(ctx.clock.now().getTime() + Date.UTC(2026, 0, 1));\n' +
        "// Date.now() and new Date() in a comment are no read.\nexport const text = 'new Date()';\n",
    });
    expect(result.output).toMatch(/^Clock reads: none in 1 files of apps\/bff\/src outside apps\/bff\/src\/lib\/clock\.ts\./);
    expect(result.code).toBe(0);
  });

  it('fails on a planted read, naming its file and line, the way the monitoring flush loop reads it', async () => {
    const result = await checkTree({
      'apps/bff/src/modules/monitoring/flush.ts':
        'let lastFlush = 0;\nexport const tick = () => {\n  lastFlush = Date.now();\n};\n',
      'apps/bff/src/http/limits.ts': 'export const reset = (ms: number) => Math.ceil((new Date().getTime() + ms) / 1000);\n',
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain("apps/bff/src/modules/monitoring/flush.ts:3:15: Date.now reads the machine's clock");
    expect(result.output).toContain('apps/bff/src/http/limits.ts:1:49: new Date() without arguments');
    expect(result.output).toContain('2 read(s)');
  });

  it('flags every way of reading now, and none of converting', () => {
    expect(readsOf('Date.now();')).toEqual(['1:1']);
    expect(readsOf('const clock = Date.now;')).toEqual(['1:15']);
    expect(readsOf("globalThis.Date.now(); Date['now']();")).toEqual(['1:1', '1:24']);
    expect(readsOf('new Date(); new Date; new globalThis.Date();')).toEqual(['1:1', '1:13', '1:23']);
    expect(readsOf('const s = Date();')).toEqual(['1:11']);
    expect(readsOf('(Date as DateConstructor).now(); (Date)!.now();')).toEqual(['1:1', '1:34']);
    expect(
      readsOf('new Date(0); new Date(iso); new Date(...parts); Date.parse(s); Date.UTC(2026, 0); performance.now(); x.now();'),
    ).toEqual([]);
    expect(readsOf('/* Date.now() */ const t = `new Date()`; const d: Date = at;')).toEqual([]);
  });

  it('finds no read in the API server outside the clock but those in the monitoring scheduler, which is reported', () => {
    const { files, reads } = clockReadsUnder(repo);
    expect(files).toBeGreaterThan(100);
    expect(reads.filter((r) => r.file !== 'apps/bff/src/modules/monitoring/scheduler.ts')).toEqual([]);
  });
});
