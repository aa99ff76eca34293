import { ActionIcon, Alert, Anchor, Button, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, ZName, type TPipeline, type TPipelineNode } from '@stageline/shared';
import { queryClient } from '../../../shared/api/query-client';
import { formError } from '../../../shared/lib/form-errors';
import { issueOf } from '../../../shared/lib/zod-resolver';
import {
  pipelineRecordQueryOptions,
  saveGraph,
  StageSettingsDrawerOnDemand,
  useCreatePipeline,
} from '../../pipelines/builder';
import { chainGraph, orderedStages } from '../lib/chain';
import { MiniPipeline } from './mini-pipeline';

/**
 * The first pipeline: created with its start and end by the server, then stages added in a row
 * between them (a list instead of the diagram editor, which stays one click away), then one
 * stage's settings opened in the editor's own drawer.
 */
export function PipelineStep({
  projectId,
  pipelineId,
  onChosen,
  onNext,
}: {
  projectId: number;
  pipelineId: number | null;
  onChosen: (id: number) => void;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const pipeline = useQuery({ ...pipelineRecordQueryOptions(pipelineId ?? 0), enabled: pipelineId !== null });
  return (
    <Stack gap="md" maw={720} data-testid="quickstart-pipeline">
      <Title order={2}>{t('Your first pipeline')}</Title>
      <Text c="dimmed">
        {t(
          'A pipeline is the diagram of stages work goes through. Every pipeline has a Start and an End that cannot be removed; the stages you add go between them.',
        )}
      </Text>
      {pipelineId === null ? (
        <CreatePipelineForm projectId={projectId} onCreated={onChosen} />
      ) : !pipeline.data ? (
        <Loader size="sm" />
      ) : pipeline.data.stages_count === 0 ? (
        <StagesBuilder pipeline={pipeline.data} />
      ) : (
        <BuiltPipeline pipeline={pipeline.data} onNext={onNext} />
      )}
    </Stack>
  );
}

function CreatePipelineForm({ projectId, onCreated }: { projectId: number; onCreated: (id: number) => void }) {
  const { t } = useTranslation();
  const create = useCreatePipeline();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: '' },
    validate: { name: (value) => (value.trim() ? issueOf(ZName, value, t) : t('Field is required')) },
  });
  const submit = async ({ name }: { name: string }) => {
    setProblem(null);
    try {
      const pipeline = await create.mutateAsync({ project: projectId, name: name.trim(), layout: 'horizontal' });
      onCreated(pipeline.id);
    } catch (error) {
      setProblem(formError(error, { fields: ['name'], setErrors: form.setErrors, fallback: t('Data was not saved') }));
    }
  };
  return (
    <form onSubmit={form.onSubmit((values) => submit(values))} noValidate>
      <Stack gap="sm" maw={480}>
        {problem ? (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        ) : null}
        <TextInput
          label={t('Pipeline name')}
          required
          data-autofocus
          data-testid="quickstart-pipeline-name"
          {...form.getInputProps('name')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.submitting} data-testid="quickstart-pipeline-create">
            {t('Create pipeline')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function StagesBuilder({ pipeline }: { pipeline: TPipeline }) {
  const { t } = useTranslation();
  // The example names are placeholders, never values: nothing typed saves nothing (decision 197).
  const examples = [t('First draft'), t('Final version')];
  const [names, setNames] = useState<string[]>(() => ['', '']);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const filled = names.map((n) => n.trim()).filter(Boolean);
  const invalid = filled.some((name) => issueOf(ZName, name, t) !== null);

  const save = async () => {
    setProblem(null);
    setSaving(true);
    try {
      const saved = await saveGraph(pipeline.id, chainGraph(pipeline, filled));
      queryClient.setQueryData(pipelineRecordQueryOptions(pipeline.id).queryKey, saved);
    } catch (error) {
      setProblem(formError(error, { fallback: t('Data was not saved') }));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="sm" data-testid="quickstart-stages">
      <Text size="sm">{t('Name the stages in the order work goes through them:')}</Text>
      {problem ? (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      ) : null}
      <Text size="sm" c="dimmed">
        {t('Start')}
      </Text>
      {names.map((name, i) => (
        <Group key={i} gap="xs" wrap="nowrap">
          <TextInput
            value={name}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setNames((current) => current.map((n, j) => (j === i ? value : n)));
            }}
            error={name.trim() ? issueOf(ZName, name, t) : null}
            aria-label={t('Stage {{number}}', { number: i + 1 })}
            placeholder={examples[i] ?? t('Stage name')}
            style={{ flex: 1 }}
            data-testid="quickstart-stage-name"
          />
          <ActionIcon
            variant="subtle"
            color="red"
            disabled={names.length === 1}
            onClick={() => setNames((current) => current.filter((_, j) => j !== i))}
            aria-label={t('Remove stage')}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Text size="sm" c="dimmed">
        {t('End')}
      </Text>
      <Group justify="space-between">
        <Button
          variant="default"
          leftSection={<IconPlus size={16} />}
          onClick={() => setNames((current) => [...current, ''])}
          disabled={names.length >= 20}
          data-testid="quickstart-stage-add"
        >
          {t('Add stage')}
        </Button>
        <Button
          onClick={() => void save()}
          loading={saving}
          disabled={filled.length === 0 || invalid}
          data-testid="quickstart-stages-save"
        >
          {t('Save stages')}
        </Button>
      </Group>
    </Stack>
  );
}

function BuiltPipeline({ pipeline, onNext }: { pipeline: TPipeline; onNext: () => void }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState<TPipelineNode[] | null>(null);
  const [configured, setConfigured] = useState(false);
  const stages = orderedStages(pipeline);
  return (
    <Stack gap="md" data-testid="quickstart-built">
      <MiniPipeline
        // Start and End are named in the reader's language, as the diagram editor does.
        stages={stages.map((s) => ({
          key: s.id,
          name: s.kind === 'root' ? t('Start') : s.kind === 'end' ? t('End') : s.name,
          kind: s.kind,
        }))}
        onOpen={(key) => {
          const node = pipeline.nodes.find((n) => n.id === key);
          if (node) setOpened([node]);
        }}
      />
      <Text size="sm" c="dimmed">
        {t(
          'Click a stage to open its settings: who works on it, who reviews it, how reviews decide and when tasks are due.',
        )}
      </Text>
      {configured ? (
        <Alert color="teal" icon={<IconCheck size={16} />} data-testid="quickstart-settings-saved">
          {t('Stage settings saved.')}
        </Alert>
      ) : null}
      <Group justify="space-between">
        <Anchor component={Link} to={paths.app.pipelineFlow(pipeline.project, pipeline.id)} size="sm">
          {t('Open the diagram editor')}
        </Anchor>
        <Button onClick={onNext} data-testid="quickstart-pipeline-next">
          {t('Continue')}
        </Button>
      </Group>
      <StageSettingsDrawerOnDemand
        projectId={pipeline.project}
        stages={opened}
        onClose={() => setOpened(null)}
        onSaved={(saved) => {
          const byId = new Map(saved.map((s) => [s.id, s]));
          queryClient.setQueryData(pipelineRecordQueryOptions(pipeline.id).queryKey, {
            ...pipeline,
            nodes: pipeline.nodes.map((n) => byId.get(n.id) ?? n),
          });
          setConfigured(true);
          setOpened(null);
        }}
      />
    </Stack>
  );
}
