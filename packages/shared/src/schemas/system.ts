import { z } from 'zod';

/** `GET /api/health/`: is this process able to serve, and which version is it. */
export const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean() }),
});
export type THealth = z.infer<typeof ZHealth>;

/** `GET /api/config/`: what the web app must know before it renders. */
export const ZPublicConfig = z.object({
  version: z.string(),
  maintenance: z.boolean(),
  debug: z.boolean(),
  publicUrl: z.string().nullable(),
  /** MAX_UPLOAD_MB: the web app refuses larger files before sending them (docs/files.md). */
  maxUploadMb: z.number().int(),
  /** MAX_UPLOADS_IN_FLIGHT: uploads of one person at once; the web app sends no more (docs/files.md). */
  maxUploadsInFlight: z.number().int(),
});
export type TPublicConfig = z.infer<typeof ZPublicConfig>;
