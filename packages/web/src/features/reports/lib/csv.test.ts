import { describe, expect, it } from 'vitest';
import { tableToCsv } from './csv';

describe('tableToCsv', () => {
  it('writes the header and rows with CRLF, quoting only what needs it', () => {
    const csv = tableToCsv(
      {
        columns: ['Stage', 'Rounds', 'Rate'],
        rows: [
          ['Layout, final', 2, '50%'],
          ['Say "hi"', 0, null],
        ],
      },
      ',',
    );
    expect(csv).toBe('Stage,Rounds,Rate\r\n"Layout, final",2,50%\r\n"Say ""hi""",0,\r\n');
  });

  it('keeps names a spreadsheet would run as formulas as text, and numbers as numbers', () => {
    const csv = tableToCsv(
      {
        columns: ['Person', 'Delta'],
        rows: [
          ['=HYPERLINK("x")', -3],
          ['@me', 1],
        ],
      },
      ';',
    );
    expect(csv).toBe(`Person;Delta\r\n"'=HYPERLINK(""x"")";-3\r\n'@me;1\r\n`);
  });
});
