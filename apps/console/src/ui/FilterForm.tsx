import { type FormEvent, useState } from 'react';
import { useMessages } from '../i18n.tsx';
import { uiMessages } from '../messages.ts';
import { hrefWith, navigate } from '../router.tsx';

export type UiMessages = (typeof uiMessages)['en'];

export type FilterField =
  | {
      name: string;
      label: string;
      kind: 'select';
      options: readonly string[];
      /** What the empty choice says; `any` in the page's language unless given. */
      any?: string;
      /** How each option reads, when not as the API writes it (a status in the page's language). */
      optionLabels?: Readonly<Record<string, string>>;
    }
  | { name: string; label: string; kind: 'text' | 'date'; placeholder?: string };

/**
 * A list's filters, written into the address on submit (a link a colleague can open shows the same list); the page
 * reads them back from the address, so a reload or the back button keeps them. A new filter starts at the first page.
 */
export const FilterForm = ({
  path,
  query,
  fields,
  label,
  keep = {},
}: {
  path: string;
  query: URLSearchParams;
  fields: readonly FilterField[];
  label: string;
  /** Address values the form does not show but keeps (the endpoint a log belongs to). */
  keep?: Record<string, string | undefined>;
}) => {
  const t = useMessages(uiMessages);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.name, query.get(f.name) ?? ''])),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim() || undefined]));
    navigate(hrefWith(path, { ...keep, ...trimmed }));
  };
  return (
    <form className="filters" aria-label={label} onSubmit={submit}>
      {fields.map((field) =>
        field.kind === 'select' ? (
          <label key={field.name}>
            {field.label}
            <select value={values[field.name]} onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}>
              <option value="">{field.any ?? t.any}</option>
              {field.options.map((option) => (
                <option key={option} value={option}>
                  {field.optionLabels?.[option] ?? option}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label key={field.name}>
            {field.label}
            <input
              type={field.kind}
              value={values[field.name]}
              placeholder={field.kind === 'text' ? field.placeholder : undefined}
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
            />
          </label>
        ),
      )}
      <button type="submit" className="button">
        {t.show}
      </button>
    </form>
  );
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day from the address as the API's instant (its UTC midnight), or undefined. `next` gives the day after's. */
export const dayInstant = (day: string | null, next = false): string | undefined => {
  if (!day || !DAY.test(day)) return undefined;
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return undefined;
  if (next) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
};

/** The value from the address when it is one of `allowed`. */
export const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  (allowed as readonly string[]).includes(value ?? '') ? (value as T) : undefined;

const USER_ID = /^usr_[A-Za-z0-9]{1,40}$/;

/**
 * The filters the Events and Audit trail pages share, as the address holds them: a type (as the API names it, the
 * name a webhook receiver and an export read too), one customer, a range of days.
 */
export const typeUserDaysFilters = <T extends string>(
  query: URLSearchParams,
  types: readonly T[],
  t: UiMessages,
): {
  fields: FilterField[];
  type: T | undefined;
  userId: string | undefined;
  badUser: boolean;
  from: string | undefined;
  /** The instant after the last day: the API's bounds end strictly before it. */
  before: string | undefined;
  cursor: string | undefined;
} => {
  const user = query.get('user') ?? '';
  return {
    fields: [
      { name: 'type', label: t.type, kind: 'select', options: types },
      { name: 'user', label: t.customer, kind: 'text', placeholder: 'usr_…' },
      { name: 'from', label: t.fromDay, kind: 'date' },
      { name: 'to', label: t.toDay, kind: 'date' },
    ],
    type: oneOf(query.get('type'), types),
    userId: USER_ID.test(user) ? user : undefined,
    badUser: user !== '' && !USER_ID.test(user),
    from: dayInstant(query.get('from')),
    before: dayInstant(query.get('to'), true),
    cursor: query.get('cursor') ?? undefined,
  };
};

/** What a malformed customer id in the address says. */
export const BadUser = () => {
  const t = useMessages(uiMessages);
  return (
    <p className="state state-error" role="alert">
      {t.badUser}
    </p>
  );
};
