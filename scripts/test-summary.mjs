// Prints vitest's JSON results as one plain line CI can read: "<label>: N passed, N failed, N skipped", then each
// failed test's file, name and first lines of its error, so the end of CI's output says what failed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [label = 'Tests', file = 'test-results/vitest.json'] = process.argv.slice(2);
if (!existsSync(file)) {
  console.log(`${label}: no test results (${file} missing): the run stopped before the tests, in lint, types or build`);
  process.exit(1);
}
const results = JSON.parse(readFileSync(file, 'utf8'));
const skipped = results.numPendingTests + results.numTodoTests;
console.log(`${label}: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped`);

const MESSAGE_LINES = 6;
for (const suite of results.testResults ?? []) {
  const where = path.relative(process.cwd(), suite.name ?? '');
  const failed = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
  // A file that failed outside any test (an import error, a hook) has no failed test to name.
  if (failed.length === 0 && suite.status === 'failed') {
    console.log(
      `  ✗ ${where}: ${(suite.message ?? 'failed outside its tests').split('\n').slice(0, MESSAGE_LINES).join('\n    ')}`,
    );
  }
  for (const test of failed) {
    const message = (test.failureMessages ?? []).join('\n').split('\n').slice(0, MESSAGE_LINES).join('\n    ');
    console.log(`  ✗ ${where} › ${test.fullName ?? test.title}\n    ${message}`);
  }
}
process.exit(results.numFailedTests > 0 || results.success === false ? 1 : 0);
