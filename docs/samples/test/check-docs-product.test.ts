import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { currentProduct, notYetItems, pageProblems, statusProblems } from '../../../scripts/check-docs-product.ts';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');
const script = path.join(repo, 'scripts/check-docs-product.ts');
const tsx = path.join(repo, 'node_modules/.bin/tsx');
const readme = readFileSync(path.join(repo, 'README.md'), 'utf8');
const product = currentProduct();
const copies: string[] = [];
afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

/** scripts/check-docs-product.ts (part of pnpm lint) over a copy of README.md and docs/partner, after `change` edits it. */
const checkAfter = async (change: (root: string) => void) => {
  const root = mkdtempSync(path.join(tmpdir(), 'docs-product-'));
  copies.push(root);
  cpSync(path.join(repo, 'README.md'), path.join(root, 'README.md'));
  cpSync(path.join(repo, 'docs/partner'), path.join(root, 'docs/partner'), { recursive: true });
  change(root);
  return run(tsx, [script], { cwd: root }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stderr: string }) => ({ code: error.code, output: error.stderr }),
  );
};

/** README's status table with `notYet` as its "Not yet" cell. */
const withNotYet = (notYet: string) =>
  readme.replace(/(\n\| Works \| Not yet \|\n\| --- \| --- \|\n\|.*\| )[^|\n]*( \|)\n?/, `$1${notYet}$2\n`);
const guide = (text: string) => pageProblems({ name: 'docs/partner/x.md', text }, product);

describe('the docs-against-product check (scripts/check-docs-product.ts, part of pnpm lint)', () => {
  it('holds on the docs as they are', async () => {
    const result = await checkAfter(() => {});
    expect(result.output).toMatch(/Docs and product agree/);
    expect(result.code).toBe(0);
  });

  it("fails on README's status listing built capabilities as not yet (the table as it once read)", async () => {
    const once = 'the full credit report, the score simulator and savings offers';
    const result = await checkAfter((root) => writeFileSync(path.join(root, 'README.md'), withNotYet(once)));
    expect(result.code).toBe(1);
    expect(result.output).toContain(`"${once}" is listed as not built`);
    expect(result.output).toMatch(/"credit report" \(CreditReport/);
    expect(result.output).toMatch(/"score simulator" \(CreditScoreSimulation\)/);
    expect(result.output).toMatch(/"saving offer" \(OfferSavings\)/);
  });

  it('fails on a guide calling the SDK by an operation it does not have', async () => {
    const result = await checkAfter((root) => {
      const file = path.join(root, 'docs/partner/quickstart.md');
      writeFileSync(file, `${readFileSync(file, 'utf8')}\nThen \`client.getCreditScore({ userId })\`.\n`);
    });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/docs\/partner\/quickstart\.md:\d+: client\.getCreditScore\(: the SDK's client has no method/);
  });

  it('reads the "Not yet" items of the table, and finds none of them built today', () => {
    const items = notYetItems(readme);
    expect(items?.length).toBeGreaterThan(0);
    expect(statusProblems(readme, product)).toEqual([]);
  });

  it.each([
    ['an operation id', '`getCreditReport` for partners', /getCreditReport/],
    ['a path', 'GET /v1/users/{userId}/credit-report', /\/v1\/users\/\{userId\}\/credit-report/],
    ['an event type', 'score.changed events', /score\.changed/],
    ['test clocks', 'sandbox test clocks', /"test clock"/],
    ['the simulator', 'the simulator', /"simulator" \(simulateCreditScore\)/],
    ['the audit trail', 'a tamper-evident audit trail', /"audit trail"/],
    ['webhook recovery', 'webhook recovery after an outage', /"webhook recovery"/],
  ])('fails on a "Not yet" item naming %s', (_what, item, named) => {
    const [problem, ...rest] = statusProblems(withNotYet(`a console for staff; ${item}`), product);
    expect(rest).toEqual([]);
    expect(problem).toContain(`"${item}" is listed as not built`);
    expect(problem).toMatch(named);
  });

  it.each([
    'a console for the bank’s staff',
    'same-day bureau triggers and calendar-month periods',
    'disaster recovery across regions',
    'mobile SDKs for iOS and Android',
    'batch exports to the bank’s warehouse',
  ])('passes a "Not yet" item the contract does not have: %s', (item) => {
    expect(statusProblems(withNotYet(item), product)).toEqual([]);
  });

  it('fails on SDK calls the SDK refuses, and names what is wrong', () => {
    expect(guide("await credit.call('getScore', { params: { userId } });")).toEqual([
      "docs/partner/x.md:1: .call('getScore', …): getScore is no operation of the contract",
    ]);
    expect(guide("\n\ncredit.request('createAccessToken')")).toEqual([
      "docs/partner/x.md:3: .request('createAccessToken', …): createAccessToken is not in the SDK",
    ]);
    expect(guide("for await (const u of credit.list('getUser'))")).toEqual([
      "docs/partner/x.md:1: .list('getUser', …): getUser is not a cursor list (use call)",
    ]);
    expect(guide('const score = await credit.getCreditScore(userId);')).toEqual([
      "docs/partner/x.md:1: credit.getCreditScore(: the SDK's client has no method getCreditScore (operations are called as credit.call('getCreditScore', …))",
    ]);
  });

  it('fails on an operation-like name in backticks that neither the contract nor the SDK has', () => {
    expect(guide('Call `getScore` or `listCreditScores()`.')).toEqual([
      'docs/partner/x.md:1: `getScore` reads as an operation id, but neither the contract nor the SDK has it',
      'docs/partner/x.md:1: `listCreditScores` reads as an operation id, but neither the contract nor the SDK has it',
    ]);
  });

  it('takes field names, other code and the SDK’s own exports for what they are', () => {
    const text =
      '`retryAfter`, `refreshAvailableAt`, `createRoot`, `sandboxOnly`, `verifyInSandbox`, `constructEvent`, `mintUserToken`, ' +
      "`createAccessToken` (not in the SDK), credit.call('getCreditScore', { params: { userId } }), credit.list('listUsers')";
    expect(guide(text)).toEqual([]);
  });

  it("fails on a list of the widget's views that leaves some out", () => {
    expect(guide("    view: 'score', // score | factors | history | offers | alerts")).toEqual([
      `docs/partner/x.md:1: the widget's views "score | factors | history | offers | alerts" leave out report, simulator`,
    ]);
    expect(guide("type WidgetView = 'score' | 'factors' | 'report' | 'simulator' | 'history' | 'offers' | 'alerts';")).toEqual(
      [],
    );
    expect(guide("{ name: 'ready' | 'view_changed' | 'exit' }, screens enroll | verify | consent")).toEqual([]);
  });
});
