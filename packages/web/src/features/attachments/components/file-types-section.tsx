import { Alert, Button, Checkbox, Group, Loader, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileTypeGroupLabels, FileTypeGroups, type TFileTypeGroup } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { LoadError } from '../../../shared/ui/load-error';
import { Section } from '../../../shared/ui/section';
import { showToast } from '../../../shared/ui/toast';
import { useFileTypes, useSetFileTypes } from '../api';

const isGroup = (value: string): value is TFileTypeGroup => (FileTypeGroups as readonly string[]).includes(value);

/**
 * Which kinds of files the workspace takes (decision 198), for Admins: a self-contained block of the
 * workspace settings, wherever they place it. The server refuses uploads of the other kinds.
 */
export function FileTypesSection({ workspaceId }: { workspaceId: number }) {
  const { t } = useTranslation();
  const current = useFileTypes(workspaceId);
  const save = useSetFileTypes(workspaceId);
  // What the Admin ticked, over what is saved; null while nothing was changed.
  const [edited, setChosen] = useState<TFileTypeGroup[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const chosen = edited ?? current.data?.allowed ?? null;
  const dirty = edited !== null && current.data !== undefined && edited.join() !== current.data.allowed.join();
  const submit = async () => {
    if (!chosen) return;
    setProblem(null);
    try {
      await save.mutateAsync(FileTypeGroups.filter((g) => chosen.includes(g)));
      setChosen(null);
      showToast({ kind: 'success', message: t('Saved') });
    } catch (error) {
      setProblem(formError(error, { fallback: t('Data was not saved') }));
    }
  };

  return (
    <Section
      title={t('Allowed file types')}
      description={t('Uploads of other kinds are refused, naming the type. Files already attached stay.')}
      testId="workspace-file-types-section"
    >
      {current.isError ? (
        <LoadError retry={current} testId="file-types-error" />
      ) : chosen === null ? (
        <Loader size="sm" />
      ) : (
        <Stack gap="sm">
          {problem ? (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          ) : null}
          <Checkbox.Group
            value={chosen}
            onChange={(values) => setChosen(FileTypeGroups.filter((g) => values.filter(isGroup).includes(g)))}
          >
            <Stack gap={6}>
              {FileTypeGroups.map((group) => (
                <Checkbox
                  key={group}
                  value={group}
                  label={t(FileTypeGroupLabels[group])}
                  data-testid={`file-types-${group}`}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          {chosen.includes('other') ? (
            <Alert color="yellow" p="xs" data-testid="file-types-other-warning">
              {t('Programs and scripts can harm the computers of people who open them.')}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button
              onClick={() => void submit()}
              disabled={!dirty}
              loading={save.isPending}
              data-testid="file-types-save"
            >
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      )}
    </Section>
  );
}
