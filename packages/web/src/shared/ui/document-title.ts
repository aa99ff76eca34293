import { useEffect } from 'react';

/** The product's name, last in every tab's title; a name, so never translated. */
export const ProductName = 'Stageline';

/**
 * Titles the browser tab after the screen, most specific first — "SH010 · Lighting — Moth —
 * Stageline" — so tabs, history and bookmarks tell screens apart (issue 39, item 19). Empty parts
 * (a record still loading) are left out; the title goes back to the product's name on leaving.
 */
export function useDocumentTitle(parts: readonly (string | null | undefined)[]) {
  const title = [...parts.filter((part): part is string => Boolean(part?.trim())), ProductName].join(' — ');
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(
    () => () => {
      document.title = ProductName;
    },
    [],
  );
}
