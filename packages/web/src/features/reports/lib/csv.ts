import { guardCell, quotedCsvValue } from '@stageline/shared';

/** A table as the screen shows it: header cells and rows of cells. */
export type TReportTable = { columns: string[]; rows: (string | number | null)[][] };

/**
 * A cell as the server's CSV exports write it (docs/integrations.md, "CSV"): text guarded against
 * formulas (`guardCell`), quoted when it holds a quote, a line end or any delimiter; numbers as
 * they are; nothing for no value.
 */
function cell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = guardCell(value);
  return quotedCsvValue.test(safe) || safe.includes('"') ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The table as CSV (header first, CRLF lines), separated by `delimiter`. */
export function tableToCsv(table: TReportTable, delimiter: ',' | ';'): string {
  return [table.columns, ...table.rows].map((row) => row.map(cell).join(delimiter)).join('\r\n') + '\r\n';
}
