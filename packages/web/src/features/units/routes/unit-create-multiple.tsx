import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Limits, paths, ZBatchUnits, type TPipelineSummary, type TProject } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { RecordView } from '../../../shared/records';
import { PageCard } from '../../../shared/ui/page-card';
import { showToast } from '../../../shared/ui/toast';
import { usePipelineNames } from '../../pipelines/read-only';
import { useOpenProject, useProjectRecord, useWorkspaceAbilities } from '../../projects';
import { useCreateUnits } from '../api';
import { BatchPreview, previewable } from '../components/batch-preview';

type TBatchValues = {
  template: string;
  count: number | string;
  start: number | string;
  step: number | string;
  pipeline: string | null;
};
const batchFields = ['template', 'count', 'start', 'step', 'pipeline'] as const;

/** `…/units/create_multiple`: units named by a template with {count} and {project} (docs/rules.md §Pipelines). */
export default function UnitCreateMultipleScreen() {
  const { t } = useTranslation();
  const project = useProjectRecord();
  useOpenProject(project.data);
  return (
    <RecordView record={project} title={t('Create units')}>
      {(data) => <CreateUnits project={data} />}
    </RecordView>
  );
}

function CreateUnits({ project }: { project: TProject }) {
  const { t } = useTranslation();
  const abilities = useWorkspaceAbilities(project.workspace);
  const pipelines = usePipelineNames(project.id);
  let body: React.ReactNode;
  if (abilities !== null && !abilities.units.create)
    body = (
      <Alert color="yellow" data-testid="unit-create-denied">
        {t('Your role does not allow creating units in this project.')}
      </Alert>
    );
  else if (!pipelines.data)
    body = (
      <Center mih={200}>
        <Loader />
      </Center>
    );
  else body = <BatchForm project={project} pipelines={pipelines.data} />;
  return <PageCard title={t('Create units')}>{body}</PageCard>;
}

const toNumber = (value: number | string) =>
  typeof value === 'number' ? value : value.trim() === '' ? undefined : Number(value);

function BatchForm({ project, pipelines }: { project: TProject; pipelines: TPipelineSummary[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateUnits();
  const [problem, setProblem] = useState<string | null>(null);
  const resolve = zodResolver<Record<string, unknown>>(ZBatchUnits, t);
  const request = (values: TBatchValues) => ({
    project: project.id,
    pipeline: values.pipeline ? Number(values.pipeline) : undefined,
    template: values.template,
    count: toNumber(values.count),
    start: toNumber(values.start),
    step: toNumber(values.step),
  });
  const form = useForm<TBatchValues>({
    initialValues: {
      template: `${t('Unit')} {count}`,
      count: 10,
      start: 1,
      step: 1,
      pipeline: pipelines[0] ? String(pipelines[0].id) : null,
    },
    validateInputOnChange: true,
    validate: (values) => resolve(request(values)),
  });

  const submit = async (values: TBatchValues) => {
    setProblem(null);
    const body = ZBatchUnits.parse(request(values));
    try {
      const result = await create.mutateAsync(body);
      showToast({ kind: 'success', message: t('{{count}} units created', { count: result.created }) });
      await navigate(`${paths.app.units(project.id)}?pipeline=${body.pipeline}`);
    } catch (error) {
      setProblem(
        formError(error, { fields: batchFields, setErrors: form.setErrors, fallback: t('Data was not saved') }),
      );
    }
  };

  const values = request(form.values);
  const candidate = { ...values, template: values.template.trim() };
  const preview = previewable(candidate) ? candidate : null;

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="sm" maw={640}>
        {problem ? (
          <Alert color="red" role="alert" data-testid="batch-error">
            {problem}
          </Alert>
        ) : null}
        <TextInput
          label={t('Name template')}
          description={t('{count} becomes the number of each unit, {project} the project name.')}
          required
          data-testid="batch-template"
          {...form.getInputProps('template')}
        />
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <NumberInput
            label={t('Number of units')}
            required
            min={Limits.batchUnits.min}
            max={Limits.batchUnits.max}
            clampBehavior="none"
            data-testid="batch-count"
            {...form.getInputProps('count')}
          />
          <NumberInput
            label={t('Counter start')}
            min={0}
            clampBehavior="none"
            data-testid="batch-start"
            {...form.getInputProps('start')}
          />
          <NumberInput
            label={t('Counter step')}
            min={1}
            clampBehavior="none"
            data-testid="batch-step"
            {...form.getInputProps('step')}
          />
        </SimpleGrid>
        <Stack gap={4}>
          <Select
            label={t('Pipeline')}
            required
            data={pipelines.map((p) => ({ value: String(p.id), label: p.name }))}
            allowDeselect={false}
            data-testid="batch-pipeline"
            {...form.getInputProps('pipeline')}
          />
          <Anchor component={Link} to="../../pipelines/create" relative="path" size="sm">
            {t('Create pipeline')}
          </Anchor>
        </Stack>
        <BatchPreview input={preview} projectName={project.name} />
        <Group justify="flex-end">
          <Text size="xs" c="dimmed">
            {t('Up to {{max}} units at once.', { max: Limits.batchUnits.max.toLocaleString() })}
          </Text>
          <Button type="submit" loading={create.isPending} data-testid="batch-submit">
            {t('Create units')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
