/**
 * What a client's host page may learn about the score through the widget's events (docs/partner/disclosure.md):
 * `none` (the default: nothing about the score), `band` (the rating band) or `exact` (the number too). Every
 * existing client starts at `none`, the safe side: a partner that wants more asks its operator.
 */
export const sql = `
alter table clients add column widget_disclosure text not null default 'none'
  check (widget_disclosure in ('none', 'band', 'exact'));
`;
