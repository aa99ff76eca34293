import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Blocker } from 'react-router';

export type TDialogKind = 'restore' | 'tasks' | 'orphans' | 'conflict' | 'save-first';
export type TAnswer = 'yes' | 'no' | 'connect' | 'skip' | 'reload' | 'overwrite' | 'save';

/**
 * The flow editor's questions, one at a time (`useDialog`): restore the unsaved copy, stages with
 * tasks, unconnected stages, a 409 conflict, save before stage settings; and leaving unsaved. The
 * button a keyboard user most likely wants (never a destructive one) takes the focus on open.
 */
export function FlowDialogs({
  dialog,
  answer,
  blocker,
  save,
}: {
  dialog: { kind: TDialogKind; payload?: number } | null;
  answer: (value: TAnswer) => void;
  blocker: Blocker;
  save: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Modal
        opened={dialog?.kind === 'restore'}
        onClose={() => answer('no')}
        title={t('Unsaved changes found')}
        closeOnClickOutside={false}
      >
        <Stack>
          <Text>{t('This pipeline has changes from a previous session that were not saved. Restore them?')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => answer('no')} data-testid="flow-restore-discard">
              {t('Discard')}
            </Button>
            <Button data-autofocus onClick={() => answer('yes')} data-testid="flow-restore-accept">
              {t('Restore')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={dialog?.kind === 'tasks'} onClose={() => answer('no')} title={t('Delete stages with tasks?')}>
        <Stack>
          <Text data-testid="flow-tasks-removed">
            {t('Deleting these stages removes {{count}} tasks', { count: dialog?.payload ?? 0 })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" data-autofocus onClick={() => answer('no')} data-testid="flow-tasks-cancel">
              {t('Cancel')}
            </Button>
            <Button color="red" onClick={() => answer('yes')} data-testid="flow-tasks-confirm">
              {t('Delete and save')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={dialog?.kind === 'orphans'} onClose={() => answer('no')} title={t('Unconnected stages')}>
        <Stack>
          <Text>
            {t('{{count}} stages have no input or no output. Connect them to Start/End?', {
              count: dialog?.payload ?? 0,
            })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => answer('no')} data-testid="flow-orphans-cancel">
              {t('Cancel')}
            </Button>
            <Button variant="default" onClick={() => answer('skip')} data-testid="flow-orphans-skip">
              {t('Save as is')}
            </Button>
            <Button data-autofocus onClick={() => answer('connect')} data-testid="flow-orphans-confirm">
              {t('Connect and save')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal
        opened={dialog?.kind === 'conflict'}
        onClose={() => answer('no')}
        title={t('The pipeline was changed by someone else')}
      >
        <Stack>
          <Text>
            {t(
              'Someone saved this pipeline after you opened it. Your changes are kept here: reload the saved version (discarding yours) or overwrite it with yours.',
            )}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => answer('no')}>
              {t('Cancel')}
            </Button>
            <Button variant="default" color="red" onClick={() => answer('reload')} data-testid="flow-conflict-reload">
              {t('Reload')}
            </Button>
            <Button color="orange" onClick={() => answer('overwrite')} data-testid="flow-conflict-overwrite">
              {t('Overwrite')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={dialog?.kind === 'save-first'} onClose={() => answer('no')} title={t('Edit stages')}>
        <Stack>
          <Text data-testid="flow-save-first">{t('Save the pipeline first')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => answer('no')}>
              {t('Cancel')}
            </Button>
            <Button data-autofocus onClick={() => answer('save')} data-testid="flow-save-first-confirm">
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title={t('Leave without saving?')}>
        <Stack>
          <Text>{t('The diagram has unsaved changes. They stay in this browser and can be restored next time.')}</Text>
          <Group justify="flex-end">
            <Button variant="default" data-autofocus onClick={() => blocker.reset?.()} data-testid="flow-leave-cancel">
              {t('Stay')}
            </Button>
            <Button
              variant="default"
              onClick={() => {
                void save().then((result) => (result ? blocker.proceed?.() : blocker.reset?.()));
              }}
              data-testid="flow-leave-save"
            >
              {t('Save and leave')}
            </Button>
            <Button color="red" onClick={() => blocker.proceed?.()} data-testid="flow-leave-confirm">
              {t('Leave')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
