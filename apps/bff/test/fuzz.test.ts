import { ALL_OPERATIONS } from '@credit/contract';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { closeRawAgent } from './helpers/fuzz-http.ts';
import type { Category } from './helpers/fuzz-requests.ts';
import { FUZZ_SEED, fuzzOperation } from './helpers/fuzz-run.ts';
import { type FuzzWorld, startFuzzWorld } from './helpers/fuzz-world.ts';

/**
 * Property-based fuzz of every operation of the contract (issue 11). Each request is well-formed but for
 * the part its category varies: path parameters, query, body, content type and encoding, or caller and
 * headers. Every answer must keep the rules of fuzz-oracle.ts: never a 5xx, never an ETag or 304, a 401
 * says `WWW-Authenticate: Bearer`, and the status, body and error code are the ones the served
 * `/openapi.json` documents for that operation, and a control character or lone surrogate is never accepted.
 * Each property first runs the fixed hostile catalogue (helpers/fuzz-examples.ts), then seeded random runs.
 * Triage: FUZZ_REPORT=<file> lists every failing exchange, FUZZ_SKIP_CHECKS=<names> hides a known class,
 * FUZZ_SEED / FUZZ_RUNS explore further (helpers/fuzz-run.ts).
 */

const CATEGORIES: Category[] = ['path', 'query', 'body', 'transport', 'auth'];

let world: FuzzWorld;
beforeAll(async () => {
  world = await startFuzzWorld();
});
afterAll(async () => {
  closeRawAgent();
  await world?.app.close();
});

describe.each(ALL_OPERATIONS.map((op) => [op.operationId, op] as const))(`fuzz (seed ${FUZZ_SEED}): %s`, (_id, op) => {
  it.each(CATEGORIES.filter((c) => c !== 'path' || op.path.includes('{')))('%s', async (category) => {
    await fuzzOperation(world, op, category);
  });
});
