// Prints vitest's JSON results as one plain line CI can read: "<label>: N passed, N failed, N skipped".
import { readFileSync } from 'node:fs';

const [label = 'Tests', file = 'test-results/vitest.json'] = process.argv.slice(2);
const results = JSON.parse(readFileSync(file, 'utf8'));
const skipped = results.numPendingTests + results.numTodoTests;
console.log(`${label}: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped`);
