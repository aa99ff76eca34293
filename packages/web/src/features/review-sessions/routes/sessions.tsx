import { Button, Card, Group, SegmentedControl, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, TaskStatuses, TaskStatusLabels, type TProject, type TTaskStatus } from '@stageline/shared';
import { type TReviewSource } from '@stageline/shared/review-sessions';
import { ApiError, shownByTransport } from '../../../shared/api';
import { RecordView } from '../../../shared/records';
import { PageCard } from '../../../shared/ui/page-card';
import { showToast } from '../../../shared/ui/toast';
import { useOpenProject, useProjectRecord } from '../../projects';
import { viewsQueryOptions } from '../../views';
import { createSession, useProjectStages, useSessions } from '../api';

/**
 * `/app/projects/{id}/reviews` (docs/review-sessions.md): the project's review sessions and a new one
 * from a stage in a status ("everything in Review for Lighting"), a saved view, or the tasks picked
 * on the matrix (`?tasks=1,2,3`).
 */
export default function ReviewSessionsScreen() {
  const { t } = useTranslation();
  const record = useProjectRecord();
  useOpenProject(record.data);
  return (
    <RecordView record={record} title={t('Review sessions')}>
      {(project) => <Sessions project={project} />}
    </RecordView>
  );
}

type TKind = TReviewSource['kind'];

function Sessions({ project }: { project: TProject }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const picked = (params.get('tasks') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);
  const sessions = useSessions(project.id);
  const stages = useProjectStages(project.id);
  const views = useQuery(viewsQueryOptions(project.id, 'matrix'));
  const [kind, setKind] = useState<TKind>(picked.length > 0 ? 'tasks' : 'stage');
  const [name, setName] = useState('');
  const [stage, setStage] = useState<string | null>(null);
  const [status, setStatus] = useState<TTaskStatus>('review');
  const [view, setView] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const stageOptions = (stages.data ?? []).map((s) => ({
    value: String(s.id),
    label: `${s.pipeline} · ${s.name} (${s.counters?.[status] ?? 0})`,
  }));
  const source = (): TReviewSource | null => {
    if (kind === 'tasks') return { kind, tasks: picked };
    if (kind === 'stage') return stage ? { kind, stage: Number(stage), status } : null;
    return view ? { kind, view: Number(view) } : null;
  };
  const create = async () => {
    const chosen = source();
    if (!chosen) {
      setErrors({ source: kind === 'stage' ? t('Choose a stage.') : t('Choose a view.') });
      return;
    }
    const stageName = stages.data?.find((s) => s.id === Number(stage))?.name;
    const fallback =
      kind === 'stage' && stageName ? `${stageName} · ${t(TaskStatusLabels[status])}` : t('Review session');
    setBusy(true);
    try {
      const made = await createSession({ project: project.id, name: name.trim() || fallback, source: chosen });
      await navigate(paths.app.reviewSession(made.id));
    } catch (error) {
      if (error instanceof ApiError && error.fields)
        setErrors(Object.fromEntries(Object.entries(error.fields).map(([k, v]) => [k, v[0] ?? ''])));
      else if (!shownByTransport(error))
        showToast({ kind: 'error', message: error instanceof Error ? error.message : t('Unknown error') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <PageCard documentTitle={[t('Review sessions'), project.name]} title={t('Review sessions')}>
      <Card withBorder padding="md" radius="md" data-testid="review-new">
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('New review session')}
          </Title>
          <TextInput
            label={t('Name')}
            placeholder={t('Lighting dailies')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            data-testid="review-new-name"
          />
          <SegmentedControl
            value={kind}
            onChange={(value) => {
              setKind(value as TKind);
              setErrors({});
            }}
            data={[
              { value: 'stage', label: t('A stage') },
              { value: 'view', label: t('A saved view') },
              ...(picked.length > 0
                ? [{ value: 'tasks', label: t('Picked tasks ({{n}})', { n: picked.length }) }]
                : []),
            ]}
            data-testid="review-new-kind"
          />
          {kind === 'stage' ? (
            <Group grow align="flex-start">
              <Select
                label={t('Stage')}
                data={stageOptions}
                value={stage}
                onChange={setStage}
                searchable
                error={errors.source}
                data-testid="review-new-stage"
              />
              <Select
                label={t('Status')}
                data={TaskStatuses.map((s) => ({ value: s, label: t(TaskStatusLabels[s]) }))}
                value={status}
                onChange={(value) => setStatus(value ?? 'review')}
                allowDeselect={false}
                data-testid="review-new-status"
              />
            </Group>
          ) : kind === 'view' ? (
            <Select
              label={t('Saved view')}
              data={(views.data ?? []).map((v) => ({ value: String(v.id), label: v.name }))}
              value={view}
              onChange={setView}
              error={errors.source}
              nothingFoundMessage={t('No saved views in this project.')}
            />
          ) : errors.source ? (
            <Text c="red" size="sm">
              {errors.source}
            </Text>
          ) : null}
          <Group>
            <Button onClick={() => void create()} loading={busy} data-testid="review-new-create">
              {t('Build the session')}
            </Button>
          </Group>
        </Stack>
      </Card>
      {sessions.data && sessions.data.length > 0 ? (
        <Table.ScrollContainer minWidth={360}>
          <Table data-testid="review-sessions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Name')}</Table.Th>
                <Table.Th>{t('Items')}</Table.Th>
                <Table.Th>{t('Created')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.data.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>
                    <Link to={paths.app.reviewSession(s.id)}>{s.name}</Link>
                  </Table.Td>
                  <Table.Td>{s.items_count}</Table.Td>
                  <Table.Td>{new Date(s.created_at).toLocaleDateString(i18n.language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text c="dimmed" size="sm">
          {t('No review sessions yet.')}
        </Text>
      )}
    </PageCard>
  );
}
