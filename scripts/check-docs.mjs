#!/usr/bin/env node
// Keeps docs/ from rotting, on every `pnpm lint`:
//  - a fenced block announced by `<!-- sample: docs/samples/src/<file> -->` must be that file, byte for byte (the
//    samples are compiled and run against a real instance by docs/samples/test); `--write` refreshes the blocks;
//  - every sample file is shown somewhere;
//  - every fenced block of docs/partner says how it is kept true: a `sample:` include, `<!-- runs in: <test file> -->`
//    (a test that runs it), or `<!-- not run: <why> -->`;
//  - relative links point at files that exist;
//  - README.md stays under 10 KB (the rest belongs in docs/).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = process.cwd();
const write = process.argv.includes('--write');
const README_LIMIT = 10 * 1024;
const markdownUnder = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(full).isDirectory()) return markdownUnder(full);
    return full.endsWith('.md') ? [full] : [];
  });

const SAMPLE = /<!-- sample: (\S+) -->\n+```(\w*)\n([\s\S]*?)```/g;
const LINK = /\]\((?!https?:|mailto:|#)([^)\s]+)\)/g;
const problems = [];
const shown = new Set();

for (const file of [path.join(root, 'README.md'), ...markdownUnder(path.join(root, 'docs'))]) {
  const where = path.relative(root, file);
  let text = readFileSync(file, 'utf8');
  text = text.replace(SAMPLE, (block, samplePath, language, content) => {
    const sampleFile = path.join(root, samplePath);
    if (!existsSync(sampleFile)) {
      problems.push(`${where}: sample ${samplePath} does not exist`);
      return block;
    }
    shown.add(path.resolve(sampleFile));
    const actual = readFileSync(sampleFile, 'utf8');
    if (content === actual) return block;
    if (!write)
      problems.push(
        `${where}: the block after <!-- sample: ${samplePath} --> differs from the file (run node scripts/check-docs.mjs --write)`,
      );
    return `<!-- sample: ${samplePath} -->\n\n\`\`\`${language}\n${actual}\`\`\``;
  });
  if (write) writeFileSync(file, text);
  for (const [, target] of text.matchAll(LINK)) {
    const resolved = path.resolve(path.dirname(file), target.split('#')[0]);
    if (!existsSync(resolved)) problems.push(`${where}: link to ${target} leads nowhere`);
  }
}

const MARKER = /^<!-- (?:sample: \S+|runs in: (\S+).*|not run: .+) -->$/;
for (const file of markdownUnder(path.join(root, 'docs/partner'))) {
  const lines = readFileSync(file, 'utf8').split('\n');
  let inBlock = false;
  for (const [index, line] of lines.entries()) {
    if (!line.startsWith('```')) continue;
    inBlock = !inBlock;
    if (!inBlock) continue;
    const previous =
      lines
        .slice(0, index)
        .reverse()
        .find((l) => l.trim() !== '') ?? '';
    const marker = MARKER.exec(previous.trim());
    const where = `${path.relative(root, file)}:${index + 1}`;
    if (!marker)
      problems.push(`${where}: say how this block is kept true (<!-- sample: … -->, <!-- runs in: … -->, <!-- not run: … -->)`);
    else if (marker[1] && !existsSync(path.join(root, marker[1]))) problems.push(`${where}: ${marker[1]} does not exist`);
  }
}

const samplesDir = path.join(root, 'docs/samples/src');
for (const name of readdirSync(samplesDir)) {
  if (!shown.has(path.join(samplesDir, name))) problems.push(`docs/samples/src/${name} is shown in no page of docs/`);
}
const readmeSize = statSync(path.join(root, 'README.md')).size;
if (readmeSize > README_LIMIT)
  problems.push(`README.md is ${readmeSize} bytes; keep it under ${README_LIMIT} and move detail to docs/`);

if (problems.length > 0) {
  process.stderr.write(`Docs checks failed:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`Docs hold: ${shown.size} samples match their tested files, links resolve, README ${readmeSize} bytes.\n`);
