import { useMatches } from 'react-router';

/**
 * The records the current page is about, from the route's params: the palette offers "Create a
 * unit" in a project and "Open the diagram editor" on a pipeline, and `g u` goes to that project's
 * units.
 */
export function useRouteContext(): { projectId?: number; pipelineId?: number } {
  const matches = useMatches();
  const params = matches.at(-1)?.params ?? {};
  const number = (value: string | undefined) => (value && /^\d+$/.test(value) ? Number(value) : undefined);
  return { projectId: number(params.projectId), pipelineId: number(params.pipelineId) };
}
