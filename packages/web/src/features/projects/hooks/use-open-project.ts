import { useEffect } from 'react';
import { StorageKeys, type TProject } from '@stageline/shared';
import { storage } from '../../../shared/lib/storage';
import { useOpenWorkspace } from '../../workspaces';

/**
 * Opening a project (docs/rules.md §Web) stores it as `lastProject` and, when it belongs to another
 * workspace than the current one, switches to that workspace in place (`useOpenWorkspace`: it
 * remembers `recent_workspace` and stores `current_workspace`, but it stays on this page).
 */
export function useOpenProject(project: TProject | undefined): void {
  const projectId = project?.id;
  useEffect(() => {
    if (projectId === undefined) return;
    storage.set(StorageKeys.lastProject, String(projectId));
  }, [projectId]);
  useOpenWorkspace(project?.workspace);
}
