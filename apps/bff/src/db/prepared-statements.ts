import { createHash } from 'node:crypto';
import type { QueryConfig } from 'pg';

/**
 * Distinct statement texts one process prepares; past this, new texts run unnamed. SQL built from data (an
 * `in (…)` list of varying length) could otherwise grow every connection's set of prepared statements forever.
 */
const MAX_NAMED_STATEMENTS = 1000;

const names = new Map<string, string>();

/**
 * A parameterised statement runs as a named prepared statement: PostgreSQL parses and plans it once per
 * connection, then only binds and executes it. The name is a hash of the exact text, so one text always has
 * one name and two texts never share one (node-postgres refuses a name reused for other SQL). Statements
 * without parameters (DDL, migrations, several statements in one string) stay unnamed: the extended protocol
 * takes one statement at a time. Prepared statements belong to a connection, and each test schema has its own
 * pool (search_path set per connection), so the same text in two schemas is two statements on two connections.
 */
export const statementFor = (text: string, values: unknown[]): QueryConfig | string => {
  if (values.length === 0) return text;
  let name = names.get(text);
  if (!name) {
    if (names.size >= MAX_NAMED_STATEMENTS) return { text, values };
    name = `s_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
    names.set(text, name);
  }
  return { name, text, values };
};

/**
 * PostgreSQL refuses to run a prepared statement whose tables changed shape since it was planned ("cached plan
 * must not change result type"), as after another instance migrates. Its connection must be dropped: the
 * statement stays prepared there under the same name.
 */
export const isStalePreparedStatement = (error: unknown): boolean => (error as { code?: string } | null)?.code === '0A000';
