import { ALL_OPERATIONS, buildOpenApiDocument } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SSN } from '../src/bureau/sandbox/magic-ssn.ts';
import { productionEnv, startTestApp, type TestApp } from './helpers/harness.ts';
import { type CheckedDocument, createOpenApiChecker } from './helpers/openapi-check.ts';

interface ServedDocument extends CheckedDocument {
  info: { description: string };
  paths: Record<string, Record<string, { operationId: string }>>;
  webhooks: Record<string, unknown>;
}

const served = async (app: TestApp): Promise<ServedDocument> =>
  (await (await fetch(`${app.url}/openapi.json`)).json()) as ServedDocument;
const operationIdsOf = (document: ServedDocument) =>
  Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));

const SANDBOX_ONLY = ALL_OPERATIONS.filter((op) => op.sandboxOnly);

let sandbox: TestApp;
let production: TestApp;
beforeAll(async () => {
  [sandbox, production] = await Promise.all([startTestApp(), startTestApp({ config: productionEnv() })]);
});
afterAll(async () => {
  await Promise.all([sandbox?.close(), production?.close()]);
});

// A client generated from production's /openapi.json must offer only calls production answers.
describe("each environment's /openapi.json lists the operations it serves", () => {
  it('the sandbox lists every operation of the contract, the sandbox helpers and their event among them', async () => {
    const document = await served(sandbox);
    expect(operationIdsOf(document).sort()).toEqual(ALL_OPERATIONS.map((op) => op.operationId).sort());
    expect(Object.keys(document.webhooks)).toContain('sandbox.clock.ready');
  });

  it('production lists every operation but the sandbox helpers, and no sandbox event', async () => {
    const document = await served(production);
    expect(SANDBOX_ONLY.length).toBeGreaterThan(0);
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/v1/sandbox'))).toEqual([]);
    expect(operationIdsOf(document).sort()).toEqual(
      ALL_OPERATIONS.filter((op) => !op.sandboxOnly)
        .map((op) => op.operationId)
        .sort(),
    );
    expect(Object.keys(document.webhooks).filter((type) => type.startsWith('sandbox.'))).toEqual([]);
    // The suite checks production's answers against the same document the server serves.
    expect(document.paths).toEqual(buildOpenApiDocument('/', { environment: 'production' }).paths);
  });

  it("production's answers hold against production's served document, a sandbox helper's 404 included", async () => {
    const checker = createOpenApiChecker(await served(production));
    const token = await production.token(await production.createClient());
    for (const op of SANDBOX_ONLY) {
      const path = op.path.replace(/\{[^}]+\}/g, 'x_1');
      const response = await fetch(`${production.url}${path}`, {
        method: op.method.toUpperCase(),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: op.method === 'get' || op.method === 'delete' ? undefined : '{}',
      });
      const body = await response.json();
      expect(response.status, `${op.method.toUpperCase()} ${path}`).toBe(404);
      expect(() => checker.assertMatches(op.method.toUpperCase(), path, response.status, response.headers, body)).not.toThrow();
    }
    const users = await fetch(`${production.url}/v1/users`, { headers: { authorization: `Bearer ${token}` } });
    const page = await users.json();
    expect(users.status).toBe(200);
    expect(() => checker.assertMatches('GET', '/v1/users', 200, users.headers, page)).not.toThrow();
    // The check is live: the same answer with its list taken away is refused.
    expect(() => checker.assertMatches('GET', '/v1/users', 200, users.headers, { ...page, data: 'none' })).toThrow(
      /does not match/,
    );
  });

  it("the reference's sandbox paragraph names every magic ssn of the sandbox bureau; production's names none", async () => {
    const sandboxText = (await served(sandbox)).info.description;
    for (const ssn of Object.values(SANDBOX_SSN)) expect(sandboxText).toContain(`\`${ssn}\``);
    const productionText = (await served(production)).info.description;
    for (const ssn of Object.values(SANDBOX_SSN)) expect(productionText).not.toContain(`\`${ssn}\``);
    expect(productionText).toMatch(/production's document/);
  });
});
