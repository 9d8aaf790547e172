#!/usr/bin/env node
// Keeps the OpenAPI document the API serves (GET /openapi.json, built from packages/contract) usable by the tools
// partners point at it (validators, fuzzers and generators in Rust, Python, Go as well as JavaScript), on every
// `pnpm lint`:
//  - every `pattern` (and `patternProperties` key) names no surrogate code point and compiles as a Unicode-sets
//    expression (`new RegExp(p, 'v')`), the strictest ECMA-262 reading; a tool refusing one drops the rule silently;
//  - every `format` is one JSON Schema 2020-12 defines (or OpenAPI 3.1's own numeric ones and `password`);
//  - every operation that honours `Idempotency-Key` documents the header's rules: minLength 1, maxLength 255, a
//    pattern that refuses control characters, and a description;
//  - every example (of a schema, a parameter, a header or a media type) fits the schema it illustrates.
// Run: node scripts/lint-openapi.mjs [document.json]. Without a file it lints the documents the contract builds for the
// sandbox and for production.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The validator and formats the API tests check every response with (apps/bff/test/helpers/openapi-check.ts).
const requireFromTests = createRequire(path.join(root, 'apps/bff/package.json'));
const { Ajv2020 } = requireFromTests('ajv/dist/2020.js');
const addFormats = requireFromTests('ajv-formats');

/** JSON Schema 2020-12 §7.3, plus the formats the OpenAPI 3.1 specification itself defines (§4.2). */
const KNOWN_FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uuid',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
  'regex',
  'int32',
  'int64',
  'float',
  'double',
  'password',
]);
const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** Objects whose keys are names (of properties, paths, responses…), so a key `example` there is a name, not an example. */
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'schemas',
  'paths',
  'webhooks',
  'responses',
  'headers',
  'content',
  'examples',
  'securitySchemes',
  'parameters',
  'requestBodies',
  'callbacks',
  'links',
  'encoding',
  'dependentSchemas',
]);
const SURROGATE_ESCAPE = /\\u(?:[dD][89a-fA-F][0-9a-fA-F]{2}|\{0*[dD][89a-fA-F][0-9a-fA-F]{2}\})/;
const RAW_SURROGATE = /\p{Surrogate}/u;

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const pointer = (segments) => `#/${segments.map((s) => String(s).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

/** Why `source` is not a pattern every tool can compile, or undefined. */
const patternProblem = (source) => {
  if (SURROGATE_ESCAPE.test(source) || RAW_SURROGATE.test(source)) {
    return 'names a surrogate code point (validators outside JavaScript refuse it): state the rule in code and prose';
  }
  try {
    new RegExp(source, 'v');
  } catch (error) {
    return `does not compile as a Unicode-sets expression (new RegExp(p, 'v')): ${error.message}`;
  }
  return undefined;
};

/** Every object of the document with its path, and whether it is a map of names (see NAME_MAPS). */
const walk = (node, segments, visit, isNameMap = false) => {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) walk(item, [...segments, index], visit);
    return;
  }
  if (!isObject(node)) return;
  visit(node, segments, isNameMap);
  for (const [key, child] of Object.entries(node)) {
    walk(child, [...segments, key], visit, !isNameMap && NAME_MAPS.has(key));
  }
};

const resolveRef = (document, node) => {
  if (!isObject(node) || typeof node.$ref !== 'string' || !node.$ref.startsWith('#/')) return node;
  return node.$ref
    .slice(2)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((at, key) => (isObject(at) ? at[key] : undefined), document);
};

const checkPatternsAndFormats = (document, problems) => {
  walk(document, [], (node, segments, isNameMap) => {
    if (isNameMap) return;
    if (typeof node.pattern === 'string') {
      const problem = patternProblem(node.pattern);
      if (problem) problems.push(`${pointer([...segments, 'pattern'])}: pattern ${JSON.stringify(node.pattern)} ${problem}`);
    }
    if (isObject(node.patternProperties)) {
      for (const key of Object.keys(node.patternProperties)) {
        const problem = patternProblem(key);
        if (problem) problems.push(`${pointer([...segments, 'patternProperties'])}: key ${JSON.stringify(key)} ${problem}`);
      }
    }
    if (typeof node.format === 'string' && !KNOWN_FORMATS.has(node.format)) {
      problems.push(
        `${pointer([...segments, 'format'])}: format "${node.format}" is not one JSON Schema 2020-12 defines (tools ignore it or refuse the document)`,
      );
    }
  });
};

/** Why a documented `Idempotency-Key` parameter does not state the rules the server applies, or undefined. */
const idempotencyKeyProblem = (parameter) => {
  const schema = parameter.schema ?? {};
  const missing = [];
  if (schema.type !== 'string') missing.push('type: string');
  if (schema.minLength !== 1) missing.push('minLength: 1');
  if (schema.maxLength !== IDEMPOTENCY_KEY_MAX_LENGTH) missing.push(`maxLength: ${IDEMPOTENCY_KEY_MAX_LENGTH}`);
  let refusesControls = false;
  if (typeof schema.pattern === 'string' && !patternProblem(schema.pattern)) {
    const pattern = new RegExp(schema.pattern, 'v');
    refusesControls = pattern.test('retry-key-1') && !['a\u0000b', '\u0001', 'a\u001fb', 'a\tb'].some((v) => pattern.test(v));
  }
  if (!refusesControls) missing.push('a pattern refusing control characters (U+0000–U+001F)');
  if (typeof parameter.description !== 'string' || !parameter.description.trim()) missing.push('a description');
  return missing.length ? `the Idempotency-Key header lacks ${missing.join(', ')}` : undefined;
};

const checkIdempotencyKeys = (document, problems) => {
  let checked = 0;
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method) || !isObject(operation)) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => resolveRef(document, p));
      const header = parameters.find((p) => isObject(p) && p.in === 'header' && /^idempotency-key$/i.test(p.name ?? ''));
      const honours = /Idempotency-Key/.test(`${operation.summary ?? ''} ${operation.description ?? ''}`);
      if (!header && !honours) continue;
      checked += 1;
      const where = `${method.toUpperCase()} ${template}`;
      if (!header) problems.push(`${where}: says it honours Idempotency-Key but documents no such header parameter`);
      else {
        const problem = idempotencyKeyProblem(header);
        if (problem) problems.push(`${where}: ${problem}`);
      }
    }
  }
  return checked;
};

const checkExamples = (document, problems) => {
  // Unknown formats are reported above, once; ajv would log each at every compile.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, validateSchema: false, logger: false });
  addFormats(ajv);
  // The whole document as one schema resource, so every `#/components/…` reference resolves from any subschema.
  ajv.addSchema(document, 'openapi.json');
  let checked = 0;
  const check = (example, schemaSegments, exampleSegments) => {
    checked += 1;
    const ref = `openapi.json${pointer(schemaSegments)
      .split('/')
      .map((s, i) => (i === 0 ? s : encodeURIComponent(s)))
      .join('/')}`;
    let validate;
    try {
      validate = ajv.getSchema(ref);
    } catch (error) {
      problems.push(`${pointer(schemaSegments)}: the schema does not compile: ${error.message}`);
      return;
    }
    if (validate && !validate(example)) {
      problems.push(`${pointer(exampleSegments)}: the example does not fit its schema: ${ajv.errorsText(validate.errors)}`);
    }
  };
  walk(document, [], (node, segments, isNameMap) => {
    if (isNameMap || !('example' in node)) return;
    // A parameter, header or media type carries its schema under `schema`; anything else with `example` is a schema.
    if (isObject(node.schema)) check(node.example, [...segments, 'schema'], [...segments, 'example']);
    else check(node.example, segments, [...segments, 'example']);
  });
  return checked;
};

/** Every problem of `document`, one line each, and what was looked at. */
export const lintOpenApiDocument = (document) => {
  const problems = [];
  checkPatternsAndFormats(document, problems);
  const idempotent = checkIdempotencyKeys(document, problems);
  const examples = checkExamples(document, problems);
  return { problems, idempotent, examples };
};

/** The document an environment serves, as the contract builds it (production's leaves out the sandbox helpers). */
const builtDocument = (environment) =>
  JSON.parse(
    execFileSync(
      path.join(root, 'node_modules/.bin/tsx'),
      [path.join(root, 'packages/contract/src/print-openapi.ts'), '--environment', environment],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    ),
  );

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  const documents = file
    ? [{ name: file, document: JSON.parse(readFileSync(file, 'utf8')) }]
    : ['sandbox', 'production'].map((environment) => ({
        name: `${environment}'s document`,
        document: builtDocument(environment),
      }));
  let failed = false;
  for (const { name, document } of documents) {
    const { problems, idempotent, examples } = lintOpenApiDocument(document);
    if (problems.length) {
      failed = true;
      console.error(`OpenAPI lint (${name}): ${problems.length} problem(s)`);
      for (const problem of problems) console.error(`  ${problem}`);
    } else {
      // One file given: the line reads as it always has; the built documents are named.
      const which = file ? '' : ` (${name})`;
      console.log(
        `OpenAPI lint${which}: patterns, formats, ${idempotent} Idempotency-Key header(s) and ${examples} example(s) hold.`,
      );
    }
  }
  if (failed) process.exit(1);
}
