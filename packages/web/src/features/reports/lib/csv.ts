/** A table as the screen shows it: header cells and rows of cells. */
export type TReportTable = { columns: string[]; rows: (string | number | null)[][] };

/**
 * A cell a spreadsheet must not read as a formula: text starting with `=`, `+`, `-`, `@`, a tab or
 * a carriage return gets a leading apostrophe (docs/integrations.md, "CSV"). Numbers stay numbers.
 */
function cell(value: string | number | null, delimiter: string): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return safe.includes(delimiter) || /["\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The table as CSV (header first, CRLF lines), separated by `delimiter`. */
export function tableToCsv(table: TReportTable, delimiter: ',' | ';'): string {
  return (
    [table.columns, ...table.rows]
      .map((row) => row.map((value) => cell(value, delimiter)).join(delimiter))
      .join('\r\n') + '\r\n'
  );
}
