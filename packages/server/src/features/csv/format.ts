import { parse, CsvError } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/**
 * Reading and writing CSV files as spreadsheet programs make them (docs/integrations.md, "CSV"):
 * UTF-8 with a byte order mark, CRLF line ends, a comma or, as Excel saves in Russian and other
 * locales, a semicolon between fields. Parsing and quoting are csv-parse's and csv-stringify's.
 */

export type CsvDelimiter = 'comma' | 'semicolon';

/** A problem with a line of a file, or with the whole file (`field: 'file'`); `message` is an i18n key. */
export type CsvProblem = { line: number; field: string; message: string; params?: Record<string, string | number> };

const bom = '\uFEFF';

/**
 * Cells a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, or a tab or CR first) get a `'`
 * before them (OWASP "CSV injection"); `unguardCell` removes it again on import.
 */
function guardCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The inverse of `guardCell`. */
export function unguardCell(value: string): string {
  return /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}

/** A CSV file of `header` and `rows`: BOM, CRLF, every field quoted only when it must be. */
export function toCsv(header: string[], rows: (string | number | boolean)[][], delimiter: CsvDelimiter): string {
  const cells = [header, ...rows].map((row) =>
    row.map((cell) => (typeof cell === 'string' ? guardCell(cell) : String(cell))),
  );
  return bom + stringify(cells, { delimiter: delimiter === 'semicolon' ? ';' : ',', record_delimiter: 'windows' });
}

/** A parsed file: the header's cells and each data record with the line it starts on. */
export type CsvTable = { header: string[]; records: { line: number; cells: string[] }[] };

/**
 * The delimiter of a file, from its header line: the one of `,`, `;` and tab that occurs most
 * outside quotes (a comma on a tie or when none occurs, so a one-column file is read as usual).
 */
export function detectDelimiter(headerLine: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const char of headerLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = ',';
  for (const [char, count] of counts) if (count > counts.get(best)!) best = char;
  return best;
}

/**
 * Reads an uploaded file: UTF-8 (a BOM is dropped), any of CRLF, LF or CR, the delimiter of its
 * header line. Blank lines are skipped. Refuses, with the line where it can tell, what is not a
 * CSV text: empty files, binary data (NUL bytes), UTF-16 or another encoding, broken quoting, and
 * more than `maxRecords` data lines (without reading past them).
 */
export function readCsv(bytes: Buffer, { maxRecords }: { maxRecords: number }): CsvTable | CsvProblem {
  const file = (message: string, line = 1, params?: CsvProblem['params']): CsvProblem => ({
    line,
    field: 'file',
    message,
    ...(params ? { params } : {}),
  });
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return file('The file is UTF-16 text: save it as “CSV UTF-8”.');
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) return file('The file is not a CSV text file (it holds binary data).', lineAt(bytes, nul));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const loose = new TextDecoder('utf-8').decode(bytes);
    return file('The file is not UTF-8 text: save it as “CSV UTF-8”.', lineOf(loose, loose.indexOf('\uFFFD')));
  }
  text = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (text.trim() === '') return file('The file is empty.');
  const delimiter = detectDelimiter(text.slice(0, text.indexOf('\n') >= 0 ? text.indexOf('\n') : undefined));

  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, { delimiter, relax_column_count: true, info: true }) as unknown as typeof rows;
  } catch (error) {
    if (error instanceof CsvError) {
      const lines = (error as unknown as { lines?: unknown }).lines;
      const line = typeof lines === 'number' ? lines : 1;
      return file('The line is not valid CSV: check its quotes.', line);
    }
    throw error;
  }
  let previous = 0;
  const records: CsvTable['records'] = [];
  for (const { record, info } of rows) {
    const line = previous + 1;
    previous = info.lines;
    if (record.length === 1 && record[0]!.trim() === '') continue;
    records.push({ line, cells: record });
  }
  const [head, ...data] = records;
  if (!head) return file('The file is empty.');
  if (data.length === 0) return file('The file has a header but no units.', 2);
  if (data.length > maxRecords) {
    return file('A file may hold at most {{max}} units: split it.', data[maxRecords]!.line, { max: maxRecords });
  }
  return { header: head.cells, records: data };
}

/** The 1-based line of byte `offset`. */
function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** The 1-based line of character `index` (1 when not found). */
function lineOf(text: string, index: number): number {
  if (index < 0) return 1;
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 0x0a) line++;
  return line;
}
