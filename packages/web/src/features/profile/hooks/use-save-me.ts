import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TUserPatch } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { showToast } from '../../../shared/ui/toast';
import { patchMe } from '../api';

/**
 * Saves one setting of the signed-in user from a profile section that has no form of its own (time
 * zone, language, e-mail frequency…): "Saved", or "Data was not saved" with the server's reason
 * (the translated field error or detail) so the person learns why. `then` runs after a save, before
 * the toast (apply the language, the time zone). Answers whether it saved.
 */
export function useSaveMe(userId: number) {
  const { t, i18n } = useTranslation();
  const [saving, setSaving] = useState<keyof TUserPatch | null>(null);

  const save = async (patch: TUserPatch, then?: () => unknown): Promise<boolean> => {
    setSaving((Object.keys(patch)[0] as keyof TUserPatch | undefined) ?? null);
    try {
      await patchMe(userId, patch);
      await then?.();
      // Asked of i18n now, not of the render's `t`: a language change in `then` must reach the body
      // as it reaches the title, or a switch to Russian says "Успешно / Saved" (issue 39, item 21).
      showToast({ kind: 'success', message: i18n.t('Saved') });
      return true;
    } catch (error) {
      // Null: the transport already said it (offline, slow); there is nothing to add.
      const reason = formError(error, { fallback: t('Something wrong. Try later.') });
      if (reason) showToast({ kind: 'error', title: t('Data was not saved'), message: reason });
      return false;
    } finally {
      setSaving(null);
    }
  };

  return { save, saving };
}
