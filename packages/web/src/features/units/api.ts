import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  ZBatchResult,
  ZMatrixPage,
  ZUnit,
  ZUnitImportResult,
  type TBatchUnits,
  type TUnitImportResult,
  type TUnit,
  type ZMatrixQuery,
  type ZUnitCreate,
  type ZUnitPatch,
} from '@stageline/shared';
import { api, ApiError } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';
import { pipelineKeys } from '../pipelines/crud';
import { projectKeys } from '../projects';

/**
 * Unit calls (docs/rules.md §API) and the matrix's pages. Everything lives under `['units', …]`, so a task
 * change (the tasks feature invalidates `['units']`) refreshes units and matrices alike. Calls are
 * `silent`: the record loader and the forms say what went wrong (docs/rules.md §Web).
 */
export type TUnitCreate = z.infer<typeof ZUnitCreate>;
export type TUnitPatch = z.infer<typeof ZUnitPatch>;
/** The matrix filters and sort, without the page window. */
export type TMatrixFilter = Omit<z.infer<typeof ZMatrixQuery>, 'offset' | 'limit'>;

const silent = { silent: true } as const;

export const unitKeys = {
  all: ['units'] as const,
  detail: (id: number) => ['units', id] as const,
  matrices: () => ['units', 'matrix'] as const,
  matrix: (filter: TMatrixFilter) => ['units', 'matrix', filter] as const,
  matrixPage: (filter: TMatrixFilter, offset: number, limit: number) =>
    ['units', 'matrix', filter, offset, limit] as const,
};

/** GET units/{id}/: the unit with its tasks. */
export const getUnit = async (id: number, signal?: AbortSignal) =>
  ZUnit.parse(await api.get(`units/${id}/`, { signal, silent: true }));
export const unitQueryOptions = (id: number) =>
  queryOptions({ queryKey: unitKeys.detail(id), queryFn: ({ signal }) => getUnit(id, signal) });
export const useUnit = (id: number, enabled = true) => useQuery({ ...unitQueryOptions(id), enabled });

/** GET units/matrix/?pipeline=&offset=&limit=&…: one page of rows. */
export const getMatrixPage = async (filter: TMatrixFilter, offset: number, limit: number, signal?: AbortSignal) =>
  ZMatrixPage.parse(await api.get('units/matrix/', { query: { ...filter, offset, limit }, signal, silent: true }));
export const matrixPageQueryOptions = (filter: TMatrixFilter, offset: number, limit: number) =>
  queryOptions({
    queryKey: unitKeys.matrixPage(filter, offset, limit),
    queryFn: ({ signal }) => getMatrixPage(filter, offset, limit, signal),
    // Scrolling back to a page does not ask again for a while; a task change invalidates anyway.
    staleTime: 30_000,
  });

function invalidateLists() {
  void queryClient.invalidateQueries({ queryKey: unitKeys.matrices() });
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
