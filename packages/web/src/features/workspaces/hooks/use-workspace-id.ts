import { useParams } from 'react-router';

/** The `workspaceId` URL parameter as a number (docs/rules.md §Web), or null when it is not one. */
export function useWorkspaceIdParam(): number | null {
  const { workspaceId } = useParams();
  const id = Number(workspaceId);
  return Number.isInteger(id) && id > 0 ? id : null;
}
