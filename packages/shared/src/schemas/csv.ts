import { z } from 'zod';
import { ZId } from '../validation';

/**
 * CSV import and export of units and tasks (issue 15, docs/integrations.md). The file itself is
 * read by the server; these are the form fields beside it and the answers.
 */

/** Delimiter of an exported file: comma (RFC 4180) or semicolon (Excel in Russian and other locales). */
export const ZCsvDelimiter = z.enum(['comma', 'semicolon']).default('comma');
export const ZCsvExportQuery = z.object({ delimiter: ZCsvDelimiter });

/** The text fields of `POST units/import/` (multipart, beside `file`). */
export const ZUnitImportFields = z.object({
  project: ZId,
  pipeline: ZId,
  /** `true`: validate everything and write nothing. */
  dry_run: z.enum(['true', 'false']).default('false'),
});
export type TUnitImportFields = z.infer<typeof ZUnitImportFields>;

/** One problem of an import: the file's line (1 is the header), the column (or `file`), a translated message. */
export const ZImportError = z.object({
  line: z.number().int(),
  field: z.string(),
  message: z.string(),
});
export type TImportError = z.infer<typeof ZImportError>;

/** What an import did (or, on a dry run, would do): nothing at all when there are errors. */
export const ZUnitImportResult = z
  .object({
    created: z.number().int().describe('Units created, or that a dry run would create; 0 when there are errors'),
    dry_run: z.boolean(),
    errors: z.array(ZImportError),
  })
  .meta({
    examples: [
      { created: 0, dry_run: true, errors: [{ line: 3, field: 'Animation: due', message: '“soon” is not a date.' }] },
    ],
  });
export type TUnitImportResult = z.infer<typeof ZUnitImportResult>;
