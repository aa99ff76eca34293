import { StorageKeys } from '@stageline/shared';
import { storage } from '../../shared/lib/storage';

/** The workspace the user works in (`current_workspace`), or null when none is selected. */
export function getCurrentWorkspaceId(): number | null {
  const raw = storage.get(StorageKeys.currentWorkspace);
  const id = raw === null ? NaN : Number(raw);
  return Number.isInteger(id) && id > 0 ? id : null;
}
