/**
 * A spreadsheet runs a cell as a formula when it starts with `=`, `+`, `-`, `@`, a tab or a CR
 * (OWASP "CSV injection"). A file opened with the other delimiter (`;` in a Russian Excel, `,`
 * elsewhere) or a cell pasted line by line starts new cells after any `,`, `;`, tab or line end, so
 * a `'` goes before a formula character there too, and before a run of quotes ending in one (a
 * spreadsheet drops the `"` that opens a field; a `'` already there keeps its own): then
 * `unguardCell` removes exactly the quotes this added (docs/security.md, "CSV files"). Shared by
 * the server's exports and the CSV the web app makes of a report's table.
 */
const unguarded = /(?<=^|[,;\t\r\n])(?=['"]*[=+\-@\t\r])/g;
const guarded = /(?<=^|[,;\t\r\n])'(?=['"]*[=+\-@\t\r])/g;

/** `value` as a spreadsheet shows it as text. */
export function guardCell(value: string): string {
  return value.replace(unguarded, "'");
}

/** The inverse of `guardCell`. */
export function unguardCell(value: string): string {
  return value.replace(guarded, '');
}

/** Values quoted whatever the delimiter: a spreadsheet splitting on another one keeps them whole. */
export const quotedCsvValue = /[,;\t\r\n]/;
