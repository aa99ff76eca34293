import { Alert, Button, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFieldValue, TFieldValues, TUnit } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { showToast } from '../../../shared/ui/toast';
import { saveUnitFields, unitFields, useFields } from '../api';
import { FieldInput } from './field-input';
import { FieldValue } from './field-value';

/**
 * A unit's custom fields on its screen (docs/custom-fields.md): the values, and for those who may
 * edit the unit, an input per field and one Save; the server's errors land on their fields.
 */
export function UnitFields({
  unit,
  canEdit,
  people,
}: {
  unit: TUnit;
  canEdit: boolean;
  people: readonly { id: number; name: string }[];
}) {
  const { t } = useTranslation();
  const fields = unitFields(useFields(unit.project).data);
  const [draft, setDraft] = useState<TFieldValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (fields.length === 0) return null;
  const names = new Map(people.map((p) => [p.id, p.name]));
  const valueOf = (key: string): TFieldValue | undefined => (key in draft ? draft[key] : unit.fields[key]);
  const dirty = Object.keys(draft).length > 0;

  const save = async () => {
    setSaving(true);
    setErrors({});
    setAlert(null);
    try {
      await saveUnitFields(unit.id, draft);
      setDraft({});
      showToast({ kind: 'success', message: t('Fields saved') });
    } catch (error) {
      const keys = fields.map((f) => `fields.${f.key}`);
      const rest = formError(error, {
        fields: keys,
        setErrors: (found) =>
          setErrors(Object.fromEntries(Object.entries(found).map(([key, message]) => [key.slice(7), message]))),
        fallback: t('Data was not saved'),
      });
      setAlert(rest);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="xs" data-testid="unit-fields">
      <Title order={3} size="h5">
        {t('Fields')}
      </Title>
      {canEdit ? (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
            {fields.map((field) => (
              <FieldInput
                key={field.id}
                field={field}
                value={valueOf(field.key)}
                onChange={(value) => setDraft((current) => ({ ...current, [field.key]: value }))}
                error={errors[field.key]}
                people={people}
              />
            ))}
          </SimpleGrid>
          {alert ? (
            <Alert color="red" data-testid="unit-fields-error">
              {alert}
            </Alert>
          ) : null}
          <Group>
            <Button onClick={() => void save()} disabled={!dirty} loading={saving} data-testid="unit-fields-save">
              {t('Save fields')}
            </Button>
          </Group>
        </>
      ) : (
        <Table data-testid="unit-fields-values">
          <Table.Tbody>
            {fields.map((field) => (
              <Table.Tr key={field.id}>
                <Table.Th w={200}>
                  <Text size="sm">{field.name}</Text>
                </Table.Th>
                <Table.Td>
                  <FieldValue field={field} value={unit.fields[field.key]} people={names} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
