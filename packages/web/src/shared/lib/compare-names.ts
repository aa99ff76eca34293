const collator = new Intl.Collator('und', { numeric: true });

/**
 * Orders names as the server does (its `natural_sort` collation, docs/decisions.md entry 59):
 * digit runs by value, so "Season 9" comes before "Season 10". For lists the client re-sorts.
 */
export const compareNames = (a: string, b: string): number => collator.compare(a, b);
