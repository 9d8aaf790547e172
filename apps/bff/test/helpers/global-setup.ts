import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { writeMigratedPgliteSnapshot } from './pglite-snapshot.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite's files (see pglite-snapshot.ts); empty on PostgreSQL, where each test gets a schema. */
    pgliteSnapshot: string;
  }
}

/** Once per run, before any test file: the migrated PGlite every harness app starts from. */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('pgliteSnapshot', '');
    return;
  }
  const file = path.join(tmpdir(), `credit-pglite-migrated-${process.pid}.tar`);
  await writeMigratedPgliteSnapshot(file);
  project.provide('pgliteSnapshot', file);
  return () => rmSync(file, { force: true });
}
