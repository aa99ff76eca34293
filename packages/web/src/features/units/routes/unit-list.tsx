import { Alert, Anchor, Button, Group, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconStack2 } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { can, paths, TaskStatuses, TaskStatusLabels, type TProject, type TTaskStatus } from '@stageline/shared';
import { RecordView } from '../../../shared/records';
import { ExportCsvButton } from '../../../shared/ui/export-csv-button';
import { PageCard } from '../../../shared/ui/page-card';
import { usePipelines } from '../../pipelines/read-only';
import { useOpenProject, useProjectRecord, useWorkspaceRole } from '../../projects';
import { SavedViews } from '../../views';
import { useMembers } from '../../workspaces';
import type { TMatrixFilter } from '../api';
import { ImportUnitsButton } from '../components/import-dialog';
import { UnitMatrix } from '../components/unit-matrix';

const sorts = ['name', '-name', 'created', '-created'] as const;
type TSort = (typeof sorts)[number];

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
  const role = useWorkspaceRole(project.workspace);
  const pipelines = usePipelines(project.id);
  const members = useMembers(project.workspace);
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
  const rawSort = params.get('sort') ?? 'name';
  const sort: TSort = (sorts as readonly string[]).includes(rawSort) ? (rawSort as TSort) : 'name';
  const rawStatus = params.get('status');
  const status = (TaskStatuses as readonly string[]).includes(rawStatus ?? '') ? (rawStatus as TTaskStatus) : undefined;
  const rawAssignee = params.get('assignee');
  const assignee = rawAssignee === 'me' ? 'me' : Number(rawAssignee) > 0 ? Number(rawAssignee) : undefined;
  const overdue = params.get('overdue') === 'true';

  const canCreate = can(role, 'unit', 'create');
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
  else if (pipelines.isError) body = <Alert color="red">{t('Error while loading data')}</Alert>;
  else if (!pipeline)
    body = (
      <Alert color="blue" data-testid="units-no-pipelines">
        <Stack gap="xs">
          <Text size="sm">{t('Units run through a pipeline. Create a pipeline first.')}</Text>
          {can(role, 'pipeline', 'create') ? (
            <Anchor component={Link} to={paths.app.pipelineCreate(project.id)}>
              {t('Create pipeline')}
            </Anchor>
          ) : null}
        </Stack>
      </Alert>
    );
  else {
    const filter: TMatrixFilter = { pipeline: pipeline.id, sort };
    if (status) filter.status = status;
    if (assignee) filter.assignee = assignee;
    if (overdue) filter.overdue = 'true';
    if (urlSearch) filter.search = urlSearch;
    const filtered = !!(status || assignee || overdue || urlSearch);
    body = (
      <UnitMatrix
        key={pipeline.id}
        filter={filter}
        projectId={project.id}
        empty={
          <>
            <Text c="dimmed" data-testid="matrix-empty">
              {filtered ? t('No units match the filters.') : t('No units yet.')}
            </Text>
            {filtered ? null : <Group>{createButtons}</Group>}
          </>
        }
      />
    );
  }

  const assigneeOptions = [
    { value: 'me', label: t('Me') },
    ...(members.data ?? []).map((m) => ({ value: String(m.id), label: m.name })),
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
    <PageCard title={t('Units')} actions={actions}>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SavedViews projectId={project.id} kind="matrix" role={role} />
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
          value={rawAssignee && assignee ? String(assignee) : null}
          onChange={(value) => set('assignee', value)}
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
          ]}
          value={sort}
          onChange={(value) => set('sort', value === 'name' ? null : value)}
          allowDeselect={false}
          w={150}
          data-testid="matrix-filter-sort"
        />
        <Switch
          label={t('Overdue')}
          checked={overdue}
          onChange={(event) => set('overdue', event.currentTarget.checked ? 'true' : null)}
          mb={8}
          data-testid="matrix-filter-overdue"
        />
      </Group>
      {body}
    </PageCard>
  );
}
