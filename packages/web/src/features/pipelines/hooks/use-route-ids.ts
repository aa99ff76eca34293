import { useParams } from 'react-router';

/** The project and pipeline ids of the route, or null when a parameter is not a number. */
export function usePipelineRouteIds(): { projectId: number; pipelineId: number } | null {
  const { projectId, pipelineId } = useParams();
  if (!projectId || !pipelineId || !/^\d+$/.test(projectId) || !/^\d+$/.test(pipelineId)) return null;
  return { projectId: Number(projectId), pipelineId: Number(pipelineId) };
}
