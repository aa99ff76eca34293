import { Alert, Anchor, Button, Group, MultiSelect, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconStack2 } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams, type Params } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  FieldFilterPrefix,
  paths,
  TaskStatuses,
  TaskStatusLabels,
  ZFieldSort,
  ZTaskStatus,
  type TProject,
} from '@stageline/shared';
import { type TFieldDefinition } from '@stageline/shared/fields';
import { queryClient } from '../../../shared/api/query-client';
import { tokenStore } from '../../../shared/api/tokens';
import { RecordView } from '../../../shared/records';
import { ExportCsvButton } from '../../../shared/ui/export-csv-button';
import { PageCard } from '../../../shared/ui/page-card';
import { EmptyState } from '../../../shared/ui/empty-state';
import { pipelineNamesQueryOptions, usePipelineNames } from '../../pipelines/read-only';
import { projectQueryOptions, useOpenProject, useProjectRecord, useWorkspaceAbilities } from '../../projects';
import { SavedViews } from '../../views';
import { FieldValue, unitFields, useFields } from '../../fields';
import { useTeams } from '../../teams';
import { useMembers } from '../../workspaces';
import { matrixPageQueryOptions, wholeMatrixFits, wholeMatrixQueryOptions, type TMatrixFilter } from '../api';
import { ImportUnitsButton } from '../components/import-dialog';
import { MatrixPageSize, UnitMatrix } from '../components/unit-matrix';
import type { TFieldColumn } from '../components/matrix-grid';
import { LoadError } from '../../../shared/ui/load-error';

const sorts = ['name', '-name', 'created', '-created'] as const;
type TSort = (typeof sorts)[number] | `${'' | '-'}field.${string}`;

/** Custom field kinds the server sorts on (docs/custom-fields.md). */
const sortableKinds: readonly TFieldDefinition['kind'][] = ['text', 'url', 'number', 'date', 'select', 'checkbox'];

/** The matrix filters a URL asks for (`sort`, `status`, `assignee` (an id, `me` or `team:{id}`), `overdue`, `search`). */
function readFilters(params: URLSearchParams) {
  const rawSort = params.get('sort') ?? 'name';
  const sort: TSort =
    (sorts as readonly string[]).includes(rawSort) || ZFieldSort.safeParse(rawSort).success
      ? (rawSort as TSort)
      : 'name';
  const status = ZTaskStatus.safeParse(params.get('status')).data;
  const rawAssignee = params.get('assignee');
  const assignee = rawAssignee === 'me' ? ('me' as const) : Number(rawAssignee) > 0 ? Number(rawAssignee) : undefined;
  // Teams and review rules: `assignee=team:{id}` filters by an assignee team (docs/review-rules.md).
  const assigneeTeam = rawAssignee?.startsWith('team:') ? Number(rawAssignee.slice(5)) || undefined : undefined;
  const overdue = params.get('overdue') === 'true';
  const search = params.get('search') ?? '';
  // Custom fields: `field.<key>=…` as the server takes them.
  const fields: Record<string, string> = {};
  for (const [key, value] of params)
    if (key.startsWith(FieldFilterPrefix) && value) fields[key.slice(FieldFilterPrefix.length)] = value;
  return { sort, status, assignee, assigneeTeam, overdue, search, fields };
}

/** The matrix query of `pipeline` with the URL's filters. */
function matrixFilter(pipeline: number, filters: ReturnType<typeof readFilters>): TMatrixFilter {
  const filter: TMatrixFilter = { pipeline, sort: filters.sort };
  if (filters.status) filter.status = filters.status;
  if (filters.assignee) filter.assignee = filters.assignee;
  if (filters.assigneeTeam) filter.assignee_team = filters.assigneeTeam;
  if (filters.overdue) filter.overdue = 'true';
  if (filters.search) filter.search = filters.search;
  if (Object.keys(filters.fields).length > 0) filter.fields = filters.fields;
  return filter;
}

/**
 * The screen's first reads, started by its route's loader from the URL alone, as soon as the
 * screen's chunk is in (decision 122): the project, its pipelines and, when the URL names the
 * pipeline, the first page of its rows with the URL's filters (both ways of loading the matrix draw it
 * first: decision 98). They leave beside the shell's own reads, not after the shell and the screen
 * have rendered. Only with a session: without one the shell sends the visitor to sign in.
 */
export function prefetch({ params, url }: { params: Params; url: URL }) {
  const projectId = Number(params.projectId);
  if (!tokenStore.access() || !(projectId > 0)) return;
  void queryClient.prefetchQuery(projectQueryOptions(projectId));
  void queryClient.prefetchQuery(pipelineNamesQueryOptions(projectId));
  const pipeline = Number(url.searchParams.get('pipeline'));
  // A whole matrix already here answers every filter without a call.
  if (!(pipeline > 0) || queryClient.getQueryData(wholeMatrixQueryOptions(pipeline).queryKey)) return;
  void queryClient.prefetchQuery(
    matrixPageQueryOptions(matrixFilter(pipeline, readFilters(url.searchParams)), 0, MatrixPageSize),
  );
}

/** `/app/projects/{projectId}/units`: the unit × stage matrix of one pipeline, filtered by the URL. */
export default function UnitListScreen() {
  const { t } = useTranslation();
  const record = useProjectRecord();
  useOpenProject(record.data);
  return (
    <RecordView record={record} title={t('Units')}>
      {(project) => <UnitList project={project} />}
    </RecordView>
  );
}

function UnitList({ project }: { project: TProject }) {
  const { t } = useTranslation();
  const abilities = useWorkspaceAbilities(project.workspace);
  const pipelines = usePipelineNames(project.id);
  const members = useMembers(project.workspace);
  const teams = useTeams(project.workspace);
  const people = useMemo(() => new Map((members.data ?? []).map((m) => [m.id, m.name])), [members.data]);
  const fieldList = useFields(project.id).data;
  const fields = useMemo(() => unitFields(fieldList), [fieldList]);
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [debounced] = useDebouncedValue(search.trim(), 300);

  const set = (key: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  const urlSearch = params.get('search') ?? '';
  useEffect(() => {
    if (debounced === urlSearch) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (debounced) next.set('search', debounced);
        else next.delete('search');
        return next;
      },
      { replace: true },
    );
  }, [debounced, urlSearch, setParams]);

  const list = pipelines.data ?? [];
  const wanted = Number(params.get('pipeline'));
  const pipeline = list.find((p) => p.id === wanted) ?? list[0];
  const filters = readFilters(params);
  const { sort, status, assignee, assigneeTeam, overdue } = filters;
  const rawAssignee = params.get('assignee');
  // Columns of custom fields: all unless the URL (or a saved view) names some, `none` for none.
  const rawColumns = params.get('columns');
  const fieldColumns = useMemo<TFieldColumn[]>(() => {
    const shown = rawColumns === null ? null : rawColumns.split(',');
    return fields
      .filter((field) => shown === null || shown.includes(field.key))
      .map((field) => ({
        key: field.key,
        name: field.name,
        render: (row) => <FieldValue field={field} value={row.fields?.[field.key]} people={people} compact />,
      }));
  }, [fields, people, rawColumns]);
  const shownKeys = fieldColumns.map((column) => column.key);

  const canCreate = abilities?.units.create ?? false;
  const createButtons = canCreate ? (
    <>
      <Button
        component={Link}
        to={paths.app.unitCreate(project.id)}
        leftSection={<IconPlus size={16} />}
        data-testid="unit-create-open"
      >
        {t('Create unit')}
      </Button>
      <Button
        component={Link}
        to={paths.app.unitCreateMultiple(project.id)}
        variant="light"
        leftSection={<IconStack2 size={16} />}
        data-testid="unit-create-multiple-open"
      >
        {t('Create units')}
      </Button>
    </>
  ) : null;

  let body: React.ReactNode;
  if (pipelines.isPending) body = null;
  else if (pipelines.isError) body = <LoadError retry={pipelines} />;
  else if (!pipeline)
    body = (
      <Alert color="blue" data-testid="units-no-pipelines">
        <Stack gap="xs">
          <Text size="sm">{t('Units run through a pipeline. Create a pipeline first.')}</Text>
          {(abilities?.pipelines.create ?? false) ? (
            <Anchor component={Link} to={paths.app.pipelineCreate(project.id)}>
              {t('Create pipeline')}
            </Anchor>
          ) : null}
        </Stack>
      </Alert>
    );
  else {
    const filter = matrixFilter(pipeline.id, filters);
    const filtered = !!(status || assignee || assigneeTeam || overdue || urlSearch || filter.fields);
    body = (
      <UnitMatrix
        key={pipeline.id}
        whole={wholeMatrixFits(pipeline)}
        filter={filter}
        projectId={project.id}
        people={people}
        fieldColumns={fieldColumns}
        empty={
          <>
            {filtered ? (
              <Text c="dimmed" data-testid="matrix-empty">
                {t('No units match the filters.')}
              </Text>
            ) : (
              <EmptyState
                icon={<IconStack2 size={22} />}
                title={t('No units yet.')}
                testId="matrix-empty"
                actions={createButtons ? <Group justify="center">{createButtons}</Group> : null}
              >
                {t(
                  'A unit is one thing you make (a shot, an episode, an asset): it gets a task on every stage of the pipeline. Create one, a numbered batch, or import a CSV.',
                )}
              </EmptyState>
            )}
          </>
        }
      />
    );
  }

  const assigneeOptions = [
    { value: 'me', label: t('Me') },
    ...(members.data ?? []).map((m) => ({ value: String(m.id), label: m.name })),
    ...((teams.data ?? []).length
      ? [
          {
            group: t('Teams'),
            items: (teams.data ?? []).map((team) => ({ value: `team:${team.id}`, label: team.name })),
          },
        ]
      : []),
  ];

  const actions = (
    <>
      {createButtons}
      {pipeline && canCreate ? <ImportUnitsButton project={project.id} pipeline={pipeline.id} /> : null}
      {pipeline ? (
        <ExportCsvButton
          path={`pipelines/${pipeline.id}/export.csv`}
          filename={`${pipeline.name}.csv`}
          testId="units-export"
        />
      ) : null}
    </>
  );

  return (
    <PageCard title={t('Units')} documentTitle={[t('Units'), project.name]} actions={actions} wide>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SavedViews projectId={project.id} kind="matrix" canShare={abilities?.share_views ?? false} />
        <Select
          label={t('Pipeline')}
          data={list.map((p) => ({ value: String(p.id), label: p.name }))}
          value={pipeline ? String(pipeline.id) : null}
          onChange={(value) => set('pipeline', value)}
          allowDeselect={false}
          w={200}
          data-testid="matrix-pipeline"
        />
        <TextInput
          label={t('Search')}
          leftSection={<IconSearch size={14} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={200}
          data-testid="matrix-filter-search"
        />
        <Select
          label={t('Status')}
          placeholder={t('Any')}
          data={TaskStatuses.map((s) => ({ value: s, label: t(TaskStatusLabels[s]) }))}
          value={status ?? null}
          onChange={(value) => set('status', value)}
          clearable
          w={170}
          data-testid="matrix-filter-status"
        />
        <Select
          label={t('Assignee')}
          placeholder={t('Anyone')}
          data={assigneeOptions}
          value={rawAssignee && (assignee || assigneeTeam) ? rawAssignee : null}
          onChange={(value) => set('assignee', value === null ? null : String(value))}
          clearable
          searchable
          w={170}
          data-testid="matrix-filter-assignee"
        />
        <Select
          label={t('Sort')}
          data={[
            { value: 'name', label: t('Name A–Z') },
            { value: '-name', label: t('Name Z–A') },
            { value: 'created', label: t('Oldest first') },
            { value: '-created', label: t('Newest first') },
            ...fields
              .filter((field) => sortableKinds.includes(field.kind))
              .flatMap((field) => [
                { value: `field.${field.key}`, label: t('{{field}} ascending', { field: field.name }) },
                { value: `-field.${field.key}`, label: t('{{field}} descending', { field: field.name }) },
              ]),
          ]}
          value={sort}
          onChange={(value) => set('sort', value === 'name' ? null : value)}
          allowDeselect={false}
          w={190}
          data-testid="matrix-filter-sort"
        />
        <Switch
          label={t('Overdue')}
          checked={overdue}
          onChange={(event) => set('overdue', event.currentTarget.checked ? 'true' : null)}
          mb={8}
          data-testid="matrix-filter-overdue"
        />
        {fields
          .filter((field) => field.kind === 'select' || field.kind === 'multi_select')
          .map((field) => (
            <MultiSelect
              key={field.id}
              label={field.name}
              placeholder={t('Any')}
              data={field.options.map((o) => ({ value: o.id, label: o.label }))}
              value={filters.fields[field.key]?.split(',') ?? []}
              onChange={(value) => set(`${FieldFilterPrefix}${field.key}`, value.join(',') || null)}
              clearable
              w={180}
              data-testid={`matrix-filter-field-${field.key}`}
            />
          ))}
        {fields.length > 0 ? (
          <MultiSelect
            label={t('Field columns')}
            data={fields.map((field) => ({ value: field.key, label: field.name }))}
            value={shownKeys}
            onChange={(value) =>
              set('columns', value.length === fields.length ? null : value.length ? value.join(',') : 'none')
            }
            w={200}
            data-testid="matrix-field-columns"
          />
        ) : null}
      </Group>
      {body}
    </PageCard>
  );
}
