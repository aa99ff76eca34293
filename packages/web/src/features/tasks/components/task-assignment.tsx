import { Button, Group, MultiSelect, Stack, Switch, Text } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TTask } from '@stageline/shared';
import { dateFormat } from '@stageline/shared/dates';
import { useDates } from '../../../shared/i18n/use-dates';
import { showToast } from '../../../shared/ui/toast';
import { useMembers } from '../../workspaces';
import { useTaskCommand, type TTaskPatch } from '../api';
import { showTaskUpdateError } from './task-errors';

type TValues = { useDefaults: boolean; assignees: string[]; reviewers: string[]; due: Date | null };

/** The form's values; the due date as the picker shows it: on the wall clock of the user's zone. */
const valuesOf = (task: TTask, toPicker: (value: string) => Date): TValues => ({
  useDefaults: task.use_stage_defaults,
  assignees: task.assignees.map((a) => String(a.id)),
  // Teams and review rules: reviewers through a team show as the team (TaskTeams), not one by one,
  // so saving own values never turns a team's members into reviewers of their own.
  reviewers: task.reviewers.filter((r) => !(task.team_reviewers ?? []).includes(r.id)).map((r) => String(r.id)),
  due: task.due_date ? toPicker(task.due_date) : null,
});

/**
 * Assignees, reviewers and due date (docs/rules.md §Tasks): the stage's defaults while the switch is on,
 * the task's own values once it is off. Members and above change them; others read them.
 */
export function TaskAssignment({
  task,
  workspaceId,
  editable,
}: {
  task: TTask;
  workspaceId: number;
  editable: boolean;
}) {
  const { t } = useTranslation();
  const { language, toPicker, fromPicker } = useDates();
  const members = useMembers(editable ? workspaceId : null);
  const command = useTaskCommand(task.id);
  const [values, setValues] = useState<TValues>(() => valuesOf(task, toPicker));
  // A task the server changed (another action, a refetch) resets the form to it.
  const [seen, setSeen] = useState(task);
  if (seen !== task) {
    setSeen(task);
    setValues(valuesOf(task, toPicker));
  }

  // The people already on the task stay choosable even when the member list has not loaded.
  const known = new Map<string, string>();
  for (const person of [...task.assignees, ...task.reviewers]) known.set(String(person.id), person.name);
  for (const member of members.data ?? []) known.set(String(member.id), member.name);
  const people = [...known].map(([value, label]) => ({ value, label }));

  const own = !values.useDefaults;
  const body = (): TTaskPatch => {
    const changes: TTaskPatch = {};
    if (values.useDefaults !== task.use_stage_defaults) changes.use_stage_defaults = values.useDefaults;
    if (own) {
      changes.assignees = values.assignees.map(Number);
      changes.reviewers = values.reviewers.map(Number);
      changes.due_date = values.due ? fromPicker(values.due).toISOString() : null;
    }
    return changes;
  };
  const initial = valuesOf(task, toPicker);
  const dirty = JSON.stringify(initial) !== JSON.stringify(values);

  const save = async () => {
    try {
      await command.mutateAsync({ kind: 'patch', body: body() });
      showToast({ kind: 'success', message: t('Saved') });
    } catch (error) {
      showTaskUpdateError(error);
    }
  };

  return (
    <Stack gap="sm" data-testid="task-assignment">
      <Switch
        label={t('Use stage defaults')}
        description={t('Assignees, reviewers and due date come from the stage while this is on.')}
        checked={values.useDefaults}
        disabled={!editable}
        onChange={(event) => {
          const on = event.currentTarget.checked;
          setValues((v) => ({ ...v, useDefaults: on }));
        }}
        data-testid="task-use-defaults"
      />
      <MultiSelect
        label={t('Assignees')}
        data={people}
        value={values.assignees}
        onChange={(assignees) => setValues((v) => ({ ...v, assignees }))}
        disabled={!editable || !own}
        searchable
        clearable
        placeholder={values.assignees.length ? undefined : t('Nobody')}
        data-testid="task-assignees"
      />
      <MultiSelect
        label={t('Reviewers')}
        data={people}
        value={values.reviewers}
        onChange={(reviewers) => setValues((v) => ({ ...v, reviewers }))}
        disabled={!editable || !own}
        searchable
        clearable
        placeholder={values.reviewers.length ? undefined : t('Nobody')}
        data-testid="task-reviewers"
      />
      <DateTimePicker
        label={t('Due date')}
        value={values.due}
        onChange={(value) => setValues((v) => ({ ...v, due: value ? new Date(value) : null }))}
        disabled={!editable || !own}
        clearable
        valueFormat={`${dateFormat(language)} ${language === 'ru' ? 'HH:mm' : 'h:mm A'}`}
        placeholder={t('No due date')}
        data-testid="task-due"
      />
      {editable ? (
        <Group justify="flex-end">
          {dirty ? (
            <Text size="sm" c="dimmed">
              {t('Unsaved changes')}
            </Text>
          ) : null}
          <Button
            disabled={!dirty}
            loading={command.isPending}
            onClick={() => void save()}
            data-testid="task-assignment-save"
          >
            {t('Save')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
