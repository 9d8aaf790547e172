// Keeps the guides about the product as it is, on every `pnpm lint`:
//  - README.md's status table lists as "Not yet" nothing the contract has: no operation id or path, no event type,
//    and none of the contract's own names for what it does (`CreditReport`, `CreditScoreSimulation`, `OfferSavings`…
//    read as words: "the credit report", "the score simulator", "savings offers"; see `capabilityProblems`);
//  - the guides (README.md, docs/partner/*.md) call the SDK only as it can be called: `credit.call('<id>', …)`,
//    `.request` and `.list` name operations the SDK has (a list operation for `list`), `credit.<method>(` is a method
//    of its client, and an operation-like name in backticks (`getCreditScore`) is an operation of the contract or a
//    name the SDK exports;
//  - a list of the widget's views written `score | factors | …` names every view the contract has.
// Run: pnpm exec tsx scripts/check-docs-product.ts (from the repository root; it reads README.md and docs/partner).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ALL_OPERATIONS,
  buildOpenApiDocument,
  WIDGET_VIEWS,
  type WidgetScreenName,
  type WidgetView,
} from '../packages/contract/src/index.ts';
import * as sdkBrowser from '../packages/sdk/src/browser.ts';
import { CreditClient as BrowserClient } from '../packages/sdk/src/browser-client.ts';
import { CreditClient as ServerClient } from '../packages/sdk/src/client.ts';
import * as sdk from '../packages/sdk/src/index.ts';
import { SERVER_ROUTES, USER_TOKEN_ROUTES } from '../packages/sdk/src/routes.generated.ts';
import * as sdkWebhooks from '../packages/sdk/src/webhooks.ts';

/** What the product has, as the guides may name it. */
export interface Product {
  /** Every operation id of the contract, those the SDK leaves out included. */
  operationIds: ReadonlySet<string>;
  /** The operation ids the SDK's `call`, `request` and `list` take. */
  sdkOperationIds: ReadonlySet<string>;
  /** Of those, the cursor lists (what `list` takes). */
  sdkListOperationIds: ReadonlySet<string>;
  /** Methods of the SDK's clients (server and browser). */
  clientMethods: ReadonlySet<string>;
  /** Names the SDK's entries export (`constructEvent`, `verifyWebhook`, …). */
  sdkExports: ReadonlySet<string>;
  /** Each operation's summary, by id ("Create a test clock (sandbox)"). */
  summaries: ReadonlyMap<string, string>;
  /** Paths of the contract (`/v1/users/{userId}`), event types (`score.changed`) and names of its schemas. */
  paths: ReadonlySet<string>;
  eventTypes: ReadonlySet<string>;
  schemaNames: readonly string[];
  widgetViews: readonly string[];
  widgetScreens: readonly string[];
}

export interface Page {
  /** As reported: `README.md`, `docs/partner/sdk.md`. */
  name: string;
  text: string;
}

const methodsOf = (type: { prototype: object }): string[] => {
  const names: string[] = [];
  for (let proto = type.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    names.push(...Object.getOwnPropertyNames(proto).filter((name) => name !== 'constructor'));
  }
  return names;
};

/** The widget's screens besides its dashboard views (the contract's `WidgetScreenName`). */
const OTHER_SCREENS: Exclude<WidgetScreenName, WidgetView>[] = ['enroll', 'verify', 'consent', 'withdraw'];

/** The product as this checkout builds it: the contract, the SDK's routes, clients and exports. */
export const currentProduct = (): Product => {
  const document = buildOpenApiDocument() as { components?: { schemas?: Record<string, unknown> }; webhooks?: object };
  const sdkOperationIds = [...Object.keys(SERVER_ROUTES), ...Object.keys(USER_TOKEN_ROUTES)];
  const routes: Record<string, string> = { ...SERVER_ROUTES, ...USER_TOKEN_ROUTES };
  return {
    operationIds: new Set(ALL_OPERATIONS.map((op) => op.operationId)),
    sdkOperationIds: new Set(sdkOperationIds),
    sdkListOperationIds: new Set(sdkOperationIds.filter((id) => /\slist(\s|$)/.test(routes[id] ?? ''))),
    clientMethods: new Set([...methodsOf(ServerClient), ...methodsOf(BrowserClient)]),
    sdkExports: new Set([...Object.keys(sdk), ...Object.keys(sdkBrowser), ...Object.keys(sdkWebhooks)]),
    summaries: new Map(ALL_OPERATIONS.map((op) => [op.operationId, op.summary])),
    paths: new Set(ALL_OPERATIONS.map((op) => op.path)),
    eventTypes: new Set(Object.keys(document.webhooks ?? {})),
    schemaNames: Object.keys(document.components?.schemas ?? {}),
    widgetViews: WIDGET_VIEWS,
    widgetScreens: OTHER_SCREENS,
  };
};

// ---- Words: how a contract name (`CreditScoreSimulation`) is found in prose ("the score simulator"). ----

/** `CreditScoreSimulation` → `credit`, `score`, `simulation`; `hardInquiries12Months` → `hard`, `inquiries`, `months`. */
const camelWords = (name: string) =>
  name
    .replace(/([a-z])([A-Z0-9])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);

/** Lower case, plural dropped: "offers" → "offer", "inquiries" → "inquiry". */
const singular = (word: string) =>
  word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;

/**
 * One word of the same family as another: equal, one a prefix of the other when the shorter has 4–5 letters
 * ("offer", "offers"), or the same first six letters ("simulator", "simulation"). Shorter words only as they are.
 */
const sameFamily = (a: string, b: string) => {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 4) return false;
  if (short.length < 6) return long.startsWith(short);
  return long.slice(0, 6) === short.slice(0, 6);
};

/** Words too general to say which capability is meant ("webhook status", "batch result"). */
const GENERAL_WORDS = new Set(
  'input result response request entry status type id info detail details summary view list query meta data error code event events envelope record records kind option source method state item items'
    .split(' ')
    .map(singular),
);

/**
 * Verbs of operation ids whose noun names the capability on its own ("the simulator", "simulations"); the others'
 * nouns ("recovery", "verification", "enrolment") also name things the product does not have, so they count only in a
 * pair ("webhook recovery", "identity verification").
 */
const CAPABILITY_VERBS: Record<string, string> = { simulate: 'simulat' };

/** Words that join others in a summary ("a test clock", "the credit report behind the score"): never one of a pair. */
const STOP_WORDS = new Set(
  'a an the and or of to for in on at by with from after before behind since up one some every all your its it that who what now do does not no'.split(
    ' ',
  ),
);

interface Capability {
  /** The contract's name it comes from, for the message. */
  from: string;
  /** Two words, both of which the text must have, at most two words apart. */
  words: [string, string];
}

const proseWords = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean)
    .map(singular);

const meaningful = (word: string) => !GENERAL_WORDS.has(word) && !STOP_WORDS.has(word) && word.length > 1;

/**
 * Adjacent pairs of meaningful words of every schema name, every operation id (its verb dropped) and every operation's
 * summary ("Create a test clock" → "test clock").
 */
const capabilitiesOf = (product: Product): Capability[] => {
  const pairs: Capability[] = [];
  const add = (from: string, words: string[]) => {
    const kept = words.map(singular);
    for (let i = 0; i + 1 < kept.length; i += 1) {
      const [a, b] = [kept[i] as string, kept[i + 1] as string];
      if (meaningful(a) && meaningful(b)) pairs.push({ from, words: [a, b] });
    }
  };
  for (const name of product.schemaNames) add(name, camelWords(name));
  for (const id of product.operationIds) add(id, camelWords(id).slice(1));
  for (const [id, summary] of product.summaries) add(id, proseWords(summary));
  return pairs;
};

/** Which of the contract's capabilities `text` names, each as "what it says (the contract's name)". */
export const capabilitiesNamed = (text: string, product: Product): string[] => {
  const found = new Set<string>();
  for (const id of product.operationIds) if (new RegExp(`\\b${id}\\b`).test(text)) found.add(id);
  for (const route of product.paths) {
    // A parameter takes a whole segment, and a longer path is another path.
    const segment = '[^/\\s`]+(?![^/\\s`])';
    const pattern = route.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, segment);
    if (new RegExp(`${pattern}(?!/[\\w{])`).test(text)) found.add(route);
  }
  for (const type of product.eventTypes) if (text.includes(type)) found.add(type);
  const words = proseWords(text);
  const at = (word: string) => words.flatMap((w, i) => (sameFamily(w, word) ? [i] : []));
  // Each phrase of the text once, with the first contract names it matches.
  const phrases = new Map<string, string[]>();
  const add = (phrase: string, from: string) => phrases.set(phrase, [...(phrases.get(phrase) ?? []), from]);
  for (const { from, words: pair } of capabilitiesOf(product)) {
    const near = at(pair[0]).flatMap((i) =>
      at(pair[1])
        .filter((j) => i !== j && Math.abs(i - j) <= 2)
        .map((j) => [i, j]),
    );
    const [first, second] = near[0] ?? [];
    if (first !== undefined && second !== undefined) {
      add(`"${words.slice(Math.min(first, second), Math.max(first, second) + 1).join(' ')}"`, from);
    }
  }
  for (const id of product.operationIds) {
    const stem = CAPABILITY_VERBS[camelWords(id)[0] ?? ''];
    const word = stem && words.find((w) => w.startsWith(stem));
    if (word) add(`"${word}"`, id);
  }
  for (const [phrase, from] of phrases) {
    const names = [...new Set(from)];
    found.add(`${phrase} (${names.slice(0, 2).join(', ')}${names.length > 2 ? ', …' : ''})`);
  }
  return [...found];
};

// ---- README's status table ----

/** The "Not yet" cell of README.md's status table, split into its items (`;`-separated), or undefined without one. */
export const notYetItems = (readme: string): string[] | undefined => {
  const section = readme.split(/^## /m).find((part) => part.startsWith('Status'));
  if (!section) return undefined;
  const rows = section.split('\n').filter((line) => line.startsWith('|'));
  const header = rows[0]?.split('|').map((cell) => cell.trim());
  const column = header?.findIndex((cell) => /^not yet$/i.test(cell)) ?? -1;
  if (column === -1) return undefined;
  return rows
    .slice(2)
    .flatMap((row) => (row.split('|')[column] ?? '').split(';'))
    .map((item) => item.trim())
    .filter(Boolean);
};

export const statusProblems = (readme: string, product: Product): string[] => {
  const items = notYetItems(readme);
  if (!items) return ['README.md: the status section has no table with a "Not yet" column'];
  return items.flatMap((item) => {
    const named = capabilitiesNamed(item, product);
    return named.length ? [`README.md status: "${item}" is listed as not built, but the contract has ${named.join(', ')}`] : [];
  });
};

// ---- The guides' SDK calls and operation names ----

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Names of the SDK's list receivers in the guides: `credit.call(…)`, `client.list(…)`. */
const CLIENT_CALL = /\b(?:credit|client|creditClient|browserClient)\.(\w+)\(/g;
const OPERATION_CALL = /\.(call|request|list)\(\s*['"](\w+)['"]/g;
const BACKTICKED_NAME = /`(\w+)(?:\([^`]*\))?`/g;

/** Verbs that start the contract's operation ids: `get`, `list`, `simulate`, … */
const operationVerbs = (product: Product) => new Set([...product.operationIds].map((id) => camelWords(id)[0] as string));
/** Every word of every operation id after its verb. */
const operationNouns = (product: Product) => [...product.operationIds].flatMap((id) => camelWords(id).slice(1).map(singular));

/**
 * A name that reads as an operation id: camel case, starting with a verb of the contract's operation ids, every
 * other word one of theirs (`getScore`, `listCreditScores`), so field names (`retryAfter`, `refreshAvailableAt`) and
 * other code (`createRoot`) are not taken for one.
 */
const looksLikeOperationId = (name: string, verbs: Set<string>, nouns: string[]) => {
  if (!/^[a-z]+[A-Z]\w*$/.test(name)) return false;
  const [verb, ...rest] = camelWords(name);
  return (
    verbs.has(verb as string) && rest.length > 0 && rest.every((word) => nouns.some((noun) => sameFamily(singular(word), noun)))
  );
};

export const pageProblems = (page: Page, product: Product): string[] => {
  const problems: string[] = [];
  const at = (index: number) => `${page.name}:${lineOf(page.text, index)}`;
  for (const match of page.text.matchAll(OPERATION_CALL)) {
    const [, method, id] = match as unknown as [string, string, string];
    if (!product.sdkOperationIds.has(id)) {
      const why = product.operationIds.has(id) ? 'is not in the SDK' : 'is no operation of the contract';
      problems.push(`${at(match.index)}: .${method}('${id}', …): ${id} ${why}`);
    } else if (method === 'list' && !product.sdkListOperationIds.has(id)) {
      problems.push(`${at(match.index)}: .list('${id}', …): ${id} is not a cursor list (use call)`);
    }
  }
  for (const match of page.text.matchAll(CLIENT_CALL)) {
    const method = match[1] as string;
    if (!product.clientMethods.has(method)) {
      const hint = product.sdkOperationIds.has(method) ? ` (operations are called as credit.call('${method}', …))` : '';
      problems.push(`${at(match.index)}: ${match[0]}: the SDK's client has no method ${method}${hint}`);
    }
  }
  const verbs = operationVerbs(product);
  const nouns = operationNouns(product);
  for (const match of page.text.matchAll(BACKTICKED_NAME)) {
    const name = match[1] as string;
    if (product.operationIds.has(name) || product.sdkExports.has(name) || product.clientMethods.has(name)) continue;
    if (looksLikeOperationId(name, verbs, nouns)) {
      problems.push(`${at(match.index)}: \`${name}\` reads as an operation id, but neither the contract nor the SDK has it`);
    }
  }
  const views = new Set<string>(product.widgetViews);
  const screens = new Set<string>([...product.widgetViews, ...product.widgetScreens]);
  for (const match of page.text.matchAll(/['"]?\b[a-z]+\b['"]?(?:\s*\|\s*['"]?\b[a-z]+\b['"]?){2,}/g)) {
    const names = match[0].split('|').map((part) => part.trim().replace(/['"]/g, ''));
    if (!names.includes('score') || !names.every((name) => screens.has(name))) continue;
    const missing = [...views].filter((view) => !names.includes(view));
    if (missing.length) problems.push(`${at(match.index)}: the widget's views "${match[0]}" leave out ${missing.join(', ')}`);
  }
  return problems;
};

/** Every problem of the README and the partner guides, one line each. */
export const docsProductProblems = (readme: Page, guides: Page[], product: Product): string[] => [
  ...statusProblems(readme.text, product),
  ...[readme, ...guides].flatMap((page) => pageProblems(page, product)),
];

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.cwd();
  const read = (name: string): Page => ({ name, text: readFileSync(path.join(root, name), 'utf8') });
  const guides = readdirSync(path.join(root, 'docs/partner'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => read(`docs/partner/${name}`));
  const problems = docsProductProblems(read('README.md'), guides, currentProduct());
  if (problems.length) {
    console.error(`The docs name what the product does not have:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`Docs and product agree: README's status and ${guides.length + 1} pages' SDK calls and operation names.`);
}
