import { randomBytes } from 'node:crypto';
import type { Config } from '../../src/config.ts';
import type { Db } from '../../src/db/db.ts';
import { type AppOptions, startAppOn, type TestApp } from './in-process-app.ts';
import { openMigratedTestDb } from './test-db.ts';

export * from './in-process-app.ts';

/** The real app on a real port, over `options.db` or a fresh database (migrated, on PGlite), with a clock the test moves. */
export const startTestApp = async (options: AppOptions & { db?: Db } = {}): Promise<TestApp> =>
  startAppOn(options.db ?? (await openMigratedTestDb()), options);

/** What a production instance needs to start (the harness hands it its own database, so the URL is never used). */
export const productionEnv = (): Partial<Record<keyof Config, string>> => ({
  APP_ENV: 'production',
  DATABASE_URL: 'postgres://not-used-by-the-harness',
  TOKEN_SIGNING_KEY: randomBytes(32).toString('base64'),
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
});

let enrolCounter = 0;
/** A valid enrollment input; override any field. */
export const enrollment = (overrides: Record<string, unknown> = {}) => {
  enrolCounter += 1;
  return {
    externalUserId: `cust-${enrolCounter}-${Math.random().toString(36).slice(2, 8)}`,
    email: `person${enrolCounter}@example.test`,
    firstName: 'Jane',
    lastName: 'Doe',
    ssn: '1234',
    dateOfBirth: '1985-04-12',
    address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
    ...overrides,
  };
};
