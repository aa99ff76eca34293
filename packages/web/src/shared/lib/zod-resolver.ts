import { issueParams } from '@stageline/shared';
import type { z } from 'zod';

type TTranslate = (key: string, params?: Record<string, unknown>) => string;

/**
 * Validates a Mantine form with the zod schema the API uses (one schema, in packages/shared) and
 * translates each issue's message, an i18n key, with its `{{min}}`/`{{max}}` parameters. The first
 * issue of a field wins; nested paths become Mantine's dotted paths (`items.0.name`).
 */
export function zodResolver<TValues>(schema: z.ZodType, t: TTranslate) {
  return (values: TValues): Record<string, string> => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.');
      errors[path] ??= t(issue.message, issueParams(issue as { minimum?: unknown; maximum?: unknown }));
    }
    return errors;
  };
}

/**
 * The translated first issue of one value against a field's shared schema, or null: for inputs
 * outside a Mantine form, which say what is wrong instead of cutting or clamping what was typed.
 */
export function issueOf(schema: z.ZodType, value: unknown, t: TTranslate): string | null {
  const result = schema.safeParse(value);
  const issue = result.success ? undefined : result.error.issues[0];
  return issue ? t(issue.message, issueParams(issue as { minimum?: unknown; maximum?: unknown })) : null;
}
