import { queryOptions, useMutation, useQuery, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  ZBatchResult,
  ZMatrixPage,
  ZUnit,
  ZUnitImportResult,
  wholeMatrixRows,
  ZWholeMatrixChecked,
  type TBatchUnits,
  type TPipelineSummary,
  type TTaskStatus,
  type TWholeMatrix,
  type TUnitImportResult,
  type TUnit,
  type ZUnitCreate,
  type ZUnitPatch,
} from '@stageline/shared';
import { api, ApiError } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';
import { pipelineKeys } from '../pipelines/crud';
import { projectKeys } from '../projects';
import { withTaskStatus, withUnits, type TMatrixFilter } from './lib/whole-matrix';

/**
 * Unit calls (docs/rules.md §API) and the matrix's pages. Everything lives under `['units', …]`, so a task
 * change (the tasks feature invalidates `['units']`) refreshes units and matrices alike. Calls are
 * `silent`: the record loader and the forms say what went wrong (docs/rules.md §Web).
 */
export type TUnitCreate = z.infer<typeof ZUnitCreate>;
export type TUnitPatch = z.infer<typeof ZUnitPatch>;
export type { TMatrixFilter };

const silent = { silent: true } as const;

export const unitKeys = {
  all: ['units'] as const,
  detail: (id: number) => ['units', id] as const,
  matrices: () => ['units', 'matrix'] as const,
  matrix: (filter: TMatrixFilter) => ['units', 'matrix', filter] as const,
  matrixPage: (filter: TMatrixFilter, offset: number, limit: number) =>
    ['units', 'matrix', filter, offset, limit] as const,
  /** Whole matrices: one per pipeline, filtered and sorted on the client. */
  wholes: () => ['units', 'whole'] as const,
  whole: (pipeline: number) => ['units', 'whole', pipeline] as const,
};

/** GET units/{id}/: the unit with its tasks. */
export const getUnit = async (id: number, signal?: AbortSignal) =>
  ZUnit.parse(await api.get(`units/${id}/`, { signal, silent: true }));
export const unitQueryOptions = (id: number) =>
  queryOptions({ queryKey: unitKeys.detail(id), queryFn: ({ signal }) => getUnit(id, signal) });
export const useUnit = (id: number, enabled = true) => useQuery({ ...unitQueryOptions(id), enabled });

/** GET units/matrix/?pipeline=&offset=&limit=&…: one page of rows. */
export const getMatrixPage = async (
  { fields, ...filter }: TMatrixFilter,
  offset: number,
  limit: number,
  signal?: AbortSignal,
) => {
  const byField = Object.fromEntries(Object.entries(fields ?? {}).map(([key, value]) => [`field.${key}`, value]));
  return ZMatrixPage.parse(
    await api.get('units/matrix/', { query: { ...filter, ...byField, offset, limit }, signal, silent: true }),
  );
};
export const matrixPageQueryOptions = (filter: TMatrixFilter, offset: number, limit: number) =>
  queryOptions({
    queryKey: unitKeys.matrixPage(filter, offset, limit),
    queryFn: ({ signal }) => getMatrixPage(filter, offset, limit, signal),
    // Scrolling back to a page does not ask again for a while; a task change invalidates anyway.
    staleTime: 30_000,
  });

/**
 * Pipelines of up to this many units load their whole matrix at once (10,000 × 20 stages is about
 * 9 MB of JSON, 1.5 MB compressed); bigger ones page it from the server (docs/decisions.md, "Speed").
 */
export const WholeMatrixUnits = 20_000;

/** Whether a pipeline's whole matrix is loaded at once (its units, which the server keeps counted). */
export function wholeMatrixFits(pipeline: Pick<TPipelineSummary, 'units_count'>): boolean {
  return pipeline.units_count <= WholeMatrixUnits;
}

/** GET units/matrix/whole/?pipeline= (or only `units`): the whole matrix, checked, as rows. */
export const getWholeMatrix = async (pipeline: number, units?: readonly number[], signal?: AbortSignal) =>
  wholeMatrixRows(
    ZWholeMatrixChecked.parse(
      await api.get('units/matrix/whole/', {
        query: units ? { pipeline, units: units.join(',') } : { pipeline },
        signal,
        silent: true,
      }),
    ),
  );
export const wholeMatrixQueryOptions = (pipeline: number) =>
  queryOptions({
    queryKey: unitKeys.whole(pipeline),
    queryFn: ({ signal }) => getWholeMatrix(pipeline, undefined, signal),
    // Live events keep it current; coming back to the screen asks again (a 304 when unchanged).
    staleTime: 30_000,
  });

/** Units whose rows are to be fetched again, by pipeline, with the cache to put them in. */
const refetching = new Map<number, { client: QueryClient; units: Set<number> }>();
let refetchTimer: ReturnType<typeof setTimeout> | undefined;
/** Events close together (a batch accepted, a busy pipeline) share one request per pipeline. */
const RefetchDelayMs = 150;
const RefetchMaxUnits = 500;

async function refetchRows() {
  refetchTimer = undefined;
  const batches = [...refetching];
  refetching.clear();
  for (const [pipeline, { client, units }] of batches) {
    const ids = [...units];
    for (let start = 0; start < ids.length; start += RefetchMaxUnits) {
      const asked = ids.slice(start, start + RefetchMaxUnits);
      try {
        const fresh = await getWholeMatrix(pipeline, asked);
        client.setQueryData<TWholeMatrix>(
          unitKeys.whole(pipeline),
          (matrix) => matrix && withUnits(matrix, fresh, asked),
        );
      } catch {
        void client.invalidateQueries({ queryKey: unitKeys.whole(pipeline) });
      }
    }
  }
}

/**
 * A task changed (the caller's own action, or a live event from someone else): the unit's record
 * and the matrix pages refetch; a whole matrix that holds the task shows the new status at once and
 * fetches that unit's row again for the rest (readiness, assignees, due date).
 */
export function taskChanged(
  client: QueryClient,
  task: { id: number; unit: number; pipeline: number; status: TTaskStatus },
) {
  void client.invalidateQueries({ queryKey: unitKeys.detail(task.unit) });
  void client.invalidateQueries({ queryKey: unitKeys.matrices() });
  const key = unitKeys.whole(task.pipeline);
  if (!client.getQueryData(key)) return;
  client.setQueryData<TWholeMatrix>(
    key,
    (matrix) => matrix && withTaskStatus(matrix, { unit: task.unit, task: task.id, status: task.status }),
  );
  const waiting = refetching.get(task.pipeline) ?? { client, units: new Set<number>() };
  waiting.units.add(task.unit);
  refetching.set(task.pipeline, waiting);
  refetchTimer ??= setTimeout(() => void refetchRows(), RefetchDelayMs);
}

function invalidateLists() {
  void queryClient.invalidateQueries({ queryKey: unitKeys.matrices() });
  void queryClient.invalidateQueries({ queryKey: unitKeys.wholes() });
  void queryClient.invalidateQueries({ queryKey: projectKeys.all });
  void queryClient.invalidateQueries({ queryKey: pipelineKeys.all });
}

function remember(unit: TUnit) {
  queryClient.setQueryData(unitKeys.detail(unit.id), unit);
  invalidateLists();
}

/** POST units/: the unit with its tasks, created together. */
export const createUnit = async (body: TUnitCreate) => ZUnit.parse(await api.post('units/', body, silent));
export const useCreateUnit = () => useMutation({ mutationFn: createUnit, onSuccess: remember });

/** POST units/batch/: up to 10,000 units in one call. */
export const createUnits = async (body: TBatchUnits) =>
  ZBatchResult.parse(await api.post('units/batch/', body, silent));
export const useCreateUnits = () => useMutation({ mutationFn: createUnits, onSuccess: invalidateLists });

export const updateUnit = async (id: number, body: TUnitPatch) =>
  ZUnit.parse(await api.patch(`units/${id}/`, body, silent));
export const useUpdateUnit = () =>
  useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: TUnitPatch }) => updateUnit(id, changes),
    onSuccess: remember,
  });

export const deleteUnit = (id: number) => api.delete<void>(`units/${id}/`, silent);
export const useDeleteUnit = () =>
  useMutation({
    mutationFn: deleteUnit,
    onSuccess: (_void, id) => {
      void queryClient.invalidateQueries({ queryKey: unitKeys.detail(id), refetchType: 'none' });
      invalidateLists();
    },
  });

/**
 * POST units/import/: a CSV file checked (`dryRun`) or imported, all or nothing. A file with
 * problems answers 400 with the same body, returned here for the dialog to list; other failures
 * throw as usual.
 */
export async function importUnits({
  project,
  pipeline,
  file,
  dryRun,
}: {
  project: number;
  pipeline: number;
  file: Blob;
  dryRun: boolean;
}): Promise<TUnitImportResult> {
  try {
    const fields = { project: String(project), pipeline: String(pipeline), dry_run: String(dryRun) };
    return ZUnitImportResult.parse(await api.upload('units/import/', { file }, fields, silent));
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      const result = ZUnitImportResult.safeParse(error.body);
      if (result.success) return result.data;
    }
    throw error;
  }
}
export const useImportUnits = () =>
  useMutation({
    mutationFn: importUnits,
    onSuccess: (result) => {
      if (!result.dry_run && result.created > 0) invalidateLists();
    },
  });
