import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArchive, IconArchiveOff, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TProject } from '@stageline/shared';
import {
  FieldKinds,
  optionIdOf,
  type TFieldDefinition,
  type TFieldKind,
  type TFieldOption,
} from '@stageline/shared/fields';
import { formError } from '../../../shared/lib/form-errors';
import { RecordView } from '../../../shared/records';
import { PageCard } from '../../../shared/ui/page-card';
import { showToast } from '../../../shared/ui/toast';
import { useOpenProject, useProjectRecord, useWorkspaceAbilities } from '../../projects';
import { createField, updateField, useFields } from '../api';
import { FieldKindLabels } from '../labels';

/** `/app/projects/{projectId}/fields`: a project's custom fields; Admins define and archive them. */
export default function ProjectFieldsScreen() {
  const { t } = useTranslation();
  const record = useProjectRecord();
  useOpenProject(record.data);
  return (
    <RecordView record={record} title={t('Custom fields')}>
      {(project) => <ProjectFields project={project} />}
    </RecordView>
  );
}

/** Colours given to new options in turn (Mantine's palette, as hex: the API stores #rrggbb). */
const OptionColours = ['#e03131', '#f08c00', '#2f9e44', '#1971c2', '#9c36b5', '#0c8599', '#e8590c', '#5c940d'];

/** A field's key made from its name: "Client ref" → client_ref. */
export const keyOfName = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '')
    .slice(0, 30);

/** Options from labels, keeping the ids and colours of those already there. */
function optionsOf(labels: string[]): TFieldOption[] {
  const taken: string[] = [];
  return labels.map((label, index) => {
    const id = optionIdOf(label, taken);
    taken.push(id);
    return { id, label, color: OptionColours[index % OptionColours.length]! };
  });
}

type TForm = { name: string; key: string; kind: TFieldKind; unit: string; options: string[]; required: boolean };

function ProjectFields({ project }: { project: TProject }) {
  const { t } = useTranslation();
  const abilities = useWorkspaceAbilities(project.workspace);
  const canManage = abilities?.manage_fields ?? false;
  const fields = useFields(project.id);
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<TForm>({
    initialValues: { name: '', key: '', kind: 'text', unit: '', options: [], required: false },
  });
  const select = form.values.kind === 'select' || form.values.kind === 'multi_select';

  const submit = async (values: TForm) => {
    setAlert(null);
    try {
      await createField(project.id, {
        name: values.name,
        key: values.key || keyOfName(values.name),
        kind: values.kind,
        unit: values.kind === 'number' ? values.unit : '',
        options: select ? optionsOf(values.options) : [],
        required: values.required,
      });
      form.reset();
      showToast({ kind: 'success', message: t('Field added') });
    } catch (error) {
      setAlert(
        formError(error, {
          fields: ['name', 'key', 'kind', 'unit', 'options', 'required'],
          setErrors: form.setErrors,
          fallback: t('Data was not saved'),
        }),
      );
    }
  };

  const toggle = async (field: TFieldDefinition, patch: { archived?: boolean; required?: boolean }) => {
    try {
      await updateField(field, patch);
    } catch (error) {
      const message = formError(error, { fallback: t('Data was not saved') });
      if (message) showToast({ kind: 'error', message });
    }
  };

  return (
    <PageCard title={t('Custom fields')} documentTitle={[t('Custom fields'), project.name]}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t(
            'Fields every unit of the project has: frames, difficulty, client reference… Filter and sort the matrix on them.',
          )}
        </Text>
        {fields.isPending ? null : (fields.data ?? []).length === 0 ? (
          <Text data-testid="fields-empty">{t('No fields yet.')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs" data-testid="fields-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Name')}</Table.Th>
                  <Table.Th>{t('Key')}</Table.Th>
                  <Table.Th>{t('Kind')}</Table.Th>
                  <Table.Th>{t('Options')}</Table.Th>
                  <Table.Th>{t('Required')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(fields.data ?? []).map((field) => (
                  <Table.Tr
                    key={field.id}
                    data-testid="field-row"
                    data-key={field.key}
                    style={field.archived ? { opacity: 0.6 } : undefined}
                  >
                    <Table.Td>
                      {field.name}
                      {field.archived ? (
                        <Badge ml="xs" color="gray" variant="light" tt="none">
                          {t('Archived')}
                        </Badge>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" ff="monospace">
                        {field.key}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {t(FieldKindLabels[field.kind])}
                      {field.unit ? ` (${field.unit})` : ''}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {field.options.map((o) => (
                          <Badge key={o.id} color={o.color} variant="light" tt="none">
                            {o.label}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Checkbox
                        checked={field.required}
                        disabled={!canManage || field.archived}
                        onChange={(event) => void toggle(field, { required: event.currentTarget.checked })}
                        aria-label={t('Required')}
                      />
                    </Table.Td>
                    <Table.Td>
                      {canManage ? (
                        <Button
                          size="xs"
                          variant="subtle"
                          leftSection={field.archived ? <IconArchiveOff size={14} /> : <IconArchive size={14} />}
                          onClick={() => void toggle(field, { archived: !field.archived })}
                          data-testid="field-archive"
                        >
                          {field.archived ? t('Restore') : t('Archive')}
                        </Button>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {canManage ? (
          <form onSubmit={form.onSubmit((values) => void submit(values))} data-testid="field-create">
            <Stack gap="sm">
              <Title order={3} size="h5">
                {t('Add a field')}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                <TextInput label={t('Name')} required {...form.getInputProps('name')} data-testid="field-create-name" />
                <TextInput
                  label={t('Key')}
                  description={t('Used in links and CSV; never changes.')}
                  placeholder={keyOfName(form.values.name)}
                  {...form.getInputProps('key')}
                  data-testid="field-create-key"
                />
                <Select
                  label={t('Kind')}
                  data={FieldKinds.map((kind) => ({ value: kind, label: t(FieldKindLabels[kind]) }))}
                  allowDeselect={false}
                  {...form.getInputProps('kind')}
                  data-testid="field-create-kind"
                />
              </SimpleGrid>
              {form.values.kind === 'number' ? (
                <TextInput
                  label={t('Unit')}
                  placeholder="fr"
                  w={200}
                  {...form.getInputProps('unit')}
                  data-testid="field-create-unit"
                />
              ) : null}
              {select ? (
                <TagsInput
                  label={t('Options')}
                  description={t('Type an option and press Enter.')}
                  {...form.getInputProps('options')}
                  data-testid="field-create-options"
                />
              ) : null}
              <Checkbox label={t('Required')} {...form.getInputProps('required', { type: 'checkbox' })} />
              {alert ? (
                <Alert color="red" data-testid="field-create-error">
                  {alert}
                </Alert>
              ) : null}
              <Group>
                <Button type="submit" leftSection={<IconPlus size={16} />} data-testid="field-create-submit">
                  {t('Add field')}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Text size="sm" c="dimmed">
            {t('Admins define the fields of a project.')}
          </Text>
        )}
      </Stack>
    </PageCard>
  );
}
