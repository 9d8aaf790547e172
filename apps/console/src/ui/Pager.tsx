import { useMessages } from '../i18n.tsx';
import { uiMessages } from '../messages.ts';
import { hrefWith, Link } from '../router.tsx';

/**
 * A list's pages, in the address: "Next page" writes the API's cursor into the URL (a colleague opening the link sees
 * the same page), "First page" drops it. Cursors only go forward, as the API's do.
 */
export const Pager = ({
  path,
  query,
  nextCursor,
  label,
}: {
  path: string;
  query: URLSearchParams;
  nextCursor: string | null | undefined;
  label: string;
}) => {
  const t = useMessages(uiMessages);
  const params = Object.fromEntries(query.entries());
  const onLaterPage = Boolean(params.cursor);
  if (!onLaterPage && !nextCursor) return null;
  return (
    <nav className="pager" aria-label={label}>
      {onLaterPage ? <Link href={hrefWith(path, { ...params, cursor: undefined })}>{t.firstPage}</Link> : null}
      {nextCursor ? <Link href={hrefWith(path, { ...params, cursor: nextCursor })}>{t.nextPage}</Link> : null}
    </nav>
  );
};
