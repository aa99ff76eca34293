import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZUnit, type TFieldValues } from '@stageline/shared';
import {
  ZFieldDefinition,
  ZFieldList,
  type TFieldCreate,
  type TFieldDefinition,
  type TFieldPatch,
} from '@stageline/shared/fields';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';

/**
 * Custom fields of a project (docs/custom-fields.md): one owner for `['fields', …]`. A change to a
 * definition refetches the project's fields; a change of values refetches units (`['units']`).
 */
const silent = { silent: true } as const;

export const fieldKeys = {
  all: ['fields'] as const,
  project: (projectId: number) => ['fields', projectId] as const,
};

/** GET projects/{id}/fields/: every field of the project, archived ones too, in their order. */
export const fieldsQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: fieldKeys.project(projectId),
    queryFn: async ({ signal }) =>
      ZFieldList.parse(await api.get(`projects/${projectId}/fields/`, { signal, ...silent })),
    staleTime: 60_000,
  });
export const useFields = (projectId: number | undefined) =>
  useQuery({ ...fieldsQueryOptions(projectId ?? 0), enabled: projectId !== undefined && projectId > 0 });

/** The fields units show and take: not archived, for units, in order. */
export const unitFields = (fields: readonly TFieldDefinition[] | undefined) =>
  (fields ?? []).filter((field) => field.applies_to === 'unit' && !field.archived);

export async function createField(projectId: number, body: TFieldCreate) {
  const created = ZFieldDefinition.parse(await api.post(`projects/${projectId}/fields/`, body, silent));
  await queryClient.invalidateQueries({ queryKey: fieldKeys.project(projectId) });
  return created;
}

export async function updateField(field: TFieldDefinition, patch: TFieldPatch) {
  const updated = ZFieldDefinition.parse(await api.patch(`fields/${field.id}/`, patch, silent));
  await queryClient.invalidateQueries({ queryKey: fieldKeys.project(field.project) });
  return updated;
}

/** PATCH units/{id}/ with only `fields`: the unit, its matrices and lists refetch. */
export async function saveUnitFields(unitId: number, fields: TFieldValues) {
  const unit = ZUnit.parse(await api.patch(`units/${unitId}/`, { fields }, silent));
  await queryClient.invalidateQueries({ queryKey: ['units'] });
  return unit;
}
