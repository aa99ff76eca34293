import { z } from 'zod';
import type { ZPassword } from '@stageline/shared';

export const passwordMismatch = "Passwords doesn't matches";

/**
 * Adds a repeated password to a form schema, checked against `password` ('Passwords doesn't
 * matches', docs/rules.md §Accounts). The repeat exists only in the form; it is never sent.
 */
export function withPasswordConfirm<TShape extends { password: typeof ZPassword }>(schema: z.ZodObject<TShape>) {
  return schema.extend({ password_confirm: z.string() }).refine(
    (values) => {
      const { password, password_confirm } = values as { password: string; password_confirm: string };
      return password === password_confirm;
    },
    {
      message: passwordMismatch,
      path: ['password_confirm'],
    },
  );
}
