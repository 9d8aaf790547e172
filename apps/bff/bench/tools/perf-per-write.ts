/**
 * What one write of the mixed load costs the API, by part, from two Linux `perf` recordings of the API process: one
 * taken during a read-only run, one during a run with 5 % writes (docs/operator/benchmarks.md, "What a write costs").
 * perf samples CPU time only (`-e cpu-clock`), so time the API spent waiting or descheduled is not in it, unlike a V8
 * CPU profile, which samples the wall clock.
 *
 *   perf script -i reads.data -F tid,ip,sym > reads.txt; perf script -i mixed.data -F tid,ip,sym > mixed.txt
 *   node --import tsx bench/tools/perf-per-write.ts reads.txt <reads answered> mixed.txt <requests answered> [fn]
 *
 * Request counts are the runs' req/s × the recorded seconds. Each sample is 1 ms (`perf record -F 1000`). A sample of
 * the main thread counts for the innermost JavaScript frame's package or node: module (`fn`: its function), so a
 * native call or a syscall counts for the JavaScript that made it; other threads count as GC, compiler or other.
 * Per write = (mixed µs per request − 95 % × read-only µs per request) × 20. Function names of optimised code can be
 * wrong where V8 moved code after `--perf-basic-prof` logged it: read modules, not single functions, as the result.
 */
import { readFileSync } from 'node:fs';

const WRITE_EVERY = 20;
const [readsFile, readsCount, mixedFile, mixedCount, mode = 'module'] = process.argv.slice(2);
if (!readsFile || !readsCount || !mixedFile || !mixedCount) {
  console.error('usage: perf-per-write.ts reads.txt <reads answered> mixed.txt <requests answered> [fn]');
  process.exit(2);
}

const GC = /Scaveng|MarkCompact|Heap::|GCTracer|Sweep|Marking/;
const COMPILER = /compiler::|Compile|Turbofan|Maglev/;

const partOf = (frames: string[], mainThread: boolean): string => {
  if (!mainThread)
    return `[other threads] ${frames.some((f) => GC.test(f)) ? 'gc' : frames.some((f) => COMPILER.test(f)) ? 'compiler' : 'other'}`;
  const js = frames.find((f) => f.startsWith('JS:') || f.startsWith('Eval:'));
  if (!js) {
    if (frames.some((f) => GC.test(f))) return '(gc on the main thread)';
    if (frames.some((f) => COMPILER.test(f))) return '(compiler on the main thread)';
    return frames.some((f) => /uv__io_poll|epoll/.test(f)) ? '(event loop, epoll)' : '(other native)';
  }
  if (mode === 'fn')
    return js
      .replace(/file:\/\/\S*\/dist-bench\/api-server\/api-server\.js/, 'api')
      .replace(/\S*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '');
  const where = /(node:[a-z_/]+|node_modules\/\.pnpm\/([^/@]+)|api-server\.js)/.exec(js);
  return where ? (where[2] ?? (where[1] as string)) : js.slice(0, 60);
};

/** Samples per part, from `perf script -F tid,ip,sym` output (blocks of frames, the thread id first). */
const samplesByPart = (file: string): Map<string, number> => {
  const blocks = readFileSync(file, 'utf8')
    .split('\n\n')
    .map((block) => block.trim().split('\n'))
    .filter((lines) => lines[0]);
  const perThread = new Map<string, number>();
  for (const lines of blocks) {
    const tid = (lines[0] as string).trim().split(/\s+/)[0] as string;
    perThread.set(tid, (perThread.get(tid) ?? 0) + 1);
  }
  const mainTid = [...perThread].sort((a, b) => b[1] - a[1])[0]?.[0];
  const parts = new Map<string, number>();
  for (const lines of blocks) {
    const tid = (lines[0] as string).trim().split(/\s+/)[0];
    const frames = lines.map((line, i) =>
      (i === 0 ? line.trim().replace(/^\S+\s+/, '') : line.trim()).replace(/^[0-9a-f]+ /, ''),
    );
    const part = partOf(frames.filter(Boolean), tid === mainTid);
    parts.set(part, (parts.get(part) ?? 0) + 1);
  }
  return parts;
};

const reads = samplesByPart(readsFile);
const mixed = samplesByPart(mixedFile);
const usPerRead = 1000 / Number(readsCount);
const usPerMixed = 1000 / Number(mixedCount);
const rows = [...new Set([...reads.keys(), ...mixed.keys()])].map((part) => {
  const read = (reads.get(part) ?? 0) * usPerRead;
  const mix = (mixed.get(part) ?? 0) * usPerMixed;
  return { part, read, mix, perWrite: (mix - (1 - 1 / WRITE_EVERY) * read) * WRITE_EVERY };
});
const total = (pick: (row: (typeof rows)[number]) => number) => rows.reduce((sum, row) => sum + pick(row), 0);
console.log(
  `µs per request: read-only ${total((r) => r.read).toFixed(1)}, mixed ${total((r) => r.mix).toFixed(1)}; one write ${total((r) => r.perWrite).toFixed(0)} µs`,
);
console.log('per write | read-only µs/req | mixed µs/req | part');
for (const row of rows.sort((a, b) => b.perWrite - a.perWrite).slice(0, 30)) {
  console.log(
    `${row.perWrite.toFixed(0).padStart(9)} | ${row.read.toFixed(2).padStart(16)} | ${row.mix.toFixed(2).padStart(12)} | ${row.part}`,
  );
}
