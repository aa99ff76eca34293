import { paths } from '@stageline/shared';
import { PipelineCrumb } from '../../features/pipelines/crud';
import { ProjectCrumb } from '../../features/projects';
import { TaskCrumbs } from '../../features/tasks';
import { UnitCrumbs } from '../../features/units';
import type { TRouteHandle } from './crumbs';

/**
 * The breadcrumb handles of the routes of a record (project, pipeline, unit, task). They name the
 * record from its query, so they bring the records' API calls and schemas: `routes.tsx` loads them
 * with the route (React Router's `lazy`, beside the screen's chunk), not with the app's entry.
 */
export const recordCrumbs = {
  project: {
    crumb: (params) => ({
      label: <ProjectCrumb projectId={params.projectId} />,
      to: paths.app.project(params.projectId ?? ''),
    }),
  },
  pipeline: {
    crumb: (params) => ({
      label: <PipelineCrumb pipelineId={params.pipelineId} />,
      to: paths.app.pipeline(params.projectId ?? '', params.pipelineId ?? ''),
    }),
  },
  unit: { Crumbs: UnitCrumbs },
  task: { Crumbs: TaskCrumbs },
} satisfies Record<string, TRouteHandle>;
