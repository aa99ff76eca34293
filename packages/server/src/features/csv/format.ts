import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse, CsvError, type Parser } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { guardCell, quotedCsvValue, unguardCell } from '@stageline/shared';

/**
 * Reading and writing CSV files as spreadsheet programs make them (docs/integrations.md, "CSV"):
 * UTF-8 with a byte order mark, CRLF line ends, a comma or, as Excel saves in Russian and other
 * locales, a semicolon between fields. Parsing and quoting are csv-parse's and csv-stringify's.
 */

export type CsvDelimiter = 'comma' | 'semicolon';

/** A problem with a line of a file, or with the whole file (`field: 'file'`); `message` is an i18n key. */
export type CsvProblem = { line: number; field: string; message: string; params?: Record<string, string | number> };

const bom = '\uFEFF';

// Formula guards and the values quoted whatever the delimiter (docs/security.md, "CSV files").
export { guardCell, unguardCell };
const quotedValue = quotedCsvValue;

/**
 * A CSV file of `header` and `rows`: BOM, CRLF, a field quoted when it holds a quote, a line end or
 * any of the delimiters, and guarded against formulas.
 */
export function toCsv(header: string[], rows: (string | number | boolean)[][], delimiter: CsvDelimiter): string {
  const cells = [header, ...rows].map((row) =>
    row.map((cell) => (typeof cell === 'string' ? guardCell(cell) : String(cell))),
  );
  return (
    bom +
    stringify(cells, {
      delimiter: delimiter === 'semicolon' ? ';' : ',',
      record_delimiter: 'windows',
      quoted_match: quotedValue,
    })
  );
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

/** Bytes parsed between two turns of the event loop: a few milliseconds (docs/security.md, "CSV files"). */
const sliceBytes = 16 * 1024;

/** `source` in pieces of about `sliceBytes`, none cutting a UTF-8 character in two. */
async function* slices(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    held.push(chunk);
    size += chunk.length;
    if (size <= sliceBytes) continue;
    let bytes = held.length === 1 ? held[0]! : Buffer.concat(held, size);
    while (bytes.length > sliceBytes) {
      let end = sliceBytes;
      while (end > sliceBytes - 3 && (bytes[end]! & 0xc0) === 0x80) end--;
      yield bytes.subarray(0, end);
      bytes = bytes.subarray(end);
    }
    held = [bytes];
    size = bytes.length;
  }
  if (size > 0) yield Buffer.concat(held, size);
}

/** The number of LF bytes in `bytes`. */
function newlines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) count++;
  return count;
}

const fileProblem = (message: string, line = 1, params?: CsvProblem['params']): CsvProblem => ({
  line,
  field: 'file',
  message,
  ...(params ? { params } : {}),
});

/**
 * A decoder of a file's pieces in order (`null` after the last): their text with CRLF and CR line
 * ends made LF, or the problem of the first piece that is not UTF-8 text, with its line.
 */
function textDecoder(): (bytes: Buffer | null) => string | CsvProblem {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let first = true;
  let cr = false;
  return (bytes) => {
    let text: string;
    if (bytes === null) {
      try {
        text = decoder.decode();
      } catch {
        return fileProblem('The file is not UTF-8 text: save it as “CSV UTF-8”.', line);
      }
    } else {
      if (first && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
        return fileProblem('The file is UTF-16 text: save it as “CSV UTF-8”.');
      }
      const nul = bytes.indexOf(0);
      if (nul >= 0) {
        return fileProblem(
          'The file is not a CSV text file (it holds binary data).',
          line + newlines(bytes.subarray(0, nul)),
        );
      }
      try {
        text = decoder.decode(bytes, { stream: true });
      } catch {
        const loose = new TextDecoder('utf-8').decode(bytes);
        const bad = loose.indexOf('\uFFFD');
        const before = Buffer.from(bad >= 0 ? loose.slice(0, bad) : loose);
        return fileProblem('The file is not UTF-8 text: save it as “CSV UTF-8”.', line + newlines(before));
      }
      line += newlines(bytes);
      if (first) text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    // A CR at the end of a piece may be the first half of a CRLF: it waits for the next piece.
    text = (cr ? '\r' : '') + text;
    cr = bytes !== null && text.endsWith('\r');
    if (cr) text = text.slice(0, -1);
    return text.replace(/\r\n?/g, '\n');
  };
}

/**
 * Reads an uploaded file as it arrives: UTF-8 (a BOM is dropped), any of CRLF, LF or CR, the
 * delimiter of its header line. Blank lines are skipped (up to `maxRecords` of them). Refuses, with
 * the line where it can tell, what is not a CSV text: empty files, binary data (NUL bytes), UTF-16
 * or another encoding, broken quoting, and more than `maxRecords` data lines. It stops at the first
 * problem, leaving the rest of `source` unread, and parses `sliceBytes` at a time with a turn of the
 * event loop in between, so that no file, however large, holds the server up or fills its memory
 * (docs/security.md, "CSV files").
 */
export async function readCsv(
  source: AsyncIterable<Buffer>,
  { maxRecords }: { maxRecords: number },
): Promise<CsvTable | CsvProblem> {
  const decode = textDecoder();
  let parser: Parser | undefined;
  let start = '';
  let blank = true;
  let header: string[] | undefined;
  const records: CsvTable['records'] = [];
  let blanks = 0;
  let line = 1;

  /** Keeps a parsed record; the problem of one past the limits. */
  const keep = (record: string[]): CsvProblem | undefined => {
    const at = line;
    // The record's own line ends are those inside its quoted fields (the parser keeps them as LF).
    line += 1;
    for (const cell of record) for (let i = cell.indexOf('\n'); i >= 0; i = cell.indexOf('\n', i + 1)) line++;
    if (record.length === 1 && record[0]!.trim() === '') {
      // Skipped, but not without end: a file of nothing but line ends would be parsed to its last byte.
      if (++blanks <= maxRecords) return undefined;
      return fileProblem('The file has more than {{max}} blank lines: remove them.', at, { max: maxRecords });
    }
    if (!header) header = record;
    else if (records.length === maxRecords) {
      return fileProblem('A file may hold at most {{max}} units: split it.', at, { max: maxRecords });
    } else records.push({ line: at, cells: record });
    return undefined;
  };
  const quoting = (error: unknown) => {
    const lines = (error as { lines?: unknown }).lines;
    return fileProblem('The line is not valid CSV: check its quotes.', typeof lines === 'number' ? lines : 1);
  };
  /** Parses `text` (once the header line is known, which decides the delimiter) and keeps its records. */
  const feed = (text: string, last: boolean): CsvProblem | undefined => {
    blank &&= !/\S/.test(text);
    if (!parser) {
      start += text;
      const newline = start.indexOf('\n');
      if (newline < 0 && start.length < sliceBytes && !last) return undefined;
      parser = parse({
        delimiter: detectDelimiter(newline >= 0 ? start.slice(0, newline) : start),
        relax_column_count: true,
      });
      // Its errors are read from `errored` after each write, or from the iteration after its end.
      parser.on('error', () => undefined);
      text = start;
      start = '';
    }
    if (text !== '') parser.write(text);
    for (let record; (record = parser.read() as string[] | null) !== null;) {
      const problem = keep(record);
      if (problem) return problem;
    }
    return parser.errored ? quoting(parser.errored) : undefined;
  };

  try {
    for await (const bytes of slices(source)) {
      const text = decode(bytes);
      const problem = typeof text === 'string' ? feed(text, false) : text;
      if (problem) return problem;
      await nextTurn();
    }
    const text = decode(null);
    const problem = typeof text === 'string' ? feed(text, true) : text;
    if (problem) return problem;
    parser!.end();
    try {
      for await (const record of parser! as AsyncIterable<string[]>) {
        const past = keep(record);
        if (past) return past;
      }
    } catch (error) {
      if (error instanceof CsvError) return quoting(error);
      throw error;
    }
  } finally {
    parser?.destroy();
  }
  if (!header || blank) return fileProblem('The file is empty.');
  if (records.length === 0) return fileProblem('The file has a header but no units.', 2);
  return { header, records };
}
