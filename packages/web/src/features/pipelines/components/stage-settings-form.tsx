import {
  Alert,
  Button,
  Checkbox,
  Divider,
  Drawer,
  Group,
  MultiSelect,
  NumberInput,
  Radio,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ReviewModeLabels,
  ReviewModes,
  ZStageSettings,
  type TPipelineNode,
  type TStageSettings,
} from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { issueOf } from '../../../shared/lib/zod-resolver';
import { bulkPatchStages, patchStage, patchStageRules, useStageMembers } from '../api';
import { rulesChanged, StageReviewRules, type TRulesDraft } from './stage-review-rules';
import classes from './flow.module.css';
import { blankMixed, changedFields, commonSettings, StageFields, type TStageField } from '../lib/stage-patch';

type TDueMode = 'none' | 'days' | 'date';
const dueModeOf = (s: TStageSettings): TDueMode =>
  s.default_due_days !== null ? 'days' : s.default_due_date !== null ? 'date' : 'none';

/**
 * Stage settings for one stage (PATCH stages/{id}/) or several at once (POST stages/bulk_update/
 * with only the fields changed; fields where the stages differ show as mixed and stay untouched).
 */
export function StageSettingsDrawer({
  projectId,
  stages,
  onClose,
  onClosed,
  onSaved,
}: {
  projectId: number;
  stages: TPipelineNode[] | null;
  onClose: () => void;
  /** Once the drawer has gone (its exit transition ended): where the focus goes next. */
  onClosed?: () => void;
  onSaved: (stages: TPipelineNode[]) => void;
}) {
  const { t } = useTranslation();
  const bulk = (stages?.length ?? 0) > 1;
  const rulesDraft = useRef<TRulesDraft>(null);
  return (
    <Drawer
      opened={stages !== null}
      onClose={onClose}
      // The editor gives the focus back to its stage when the drawer has gone: while it is still
      // closing, its focus trap would take the focus back, and Mantine's own return would aim at
      // what was focused before a save-first dialog (docs/decisions.md, entry 130).
      returnFocus={!onClosed}
      onExitTransitionEnd={onClosed}
      position="right"
      size="md"
      title={bulk ? t('Edit {{count}} stages', { count: stages?.length ?? 0 }) : t('Stage settings')}
      data-testid="stage-settings-drawer"
    >
      {stages ? (
        <StageSettingsForm
          key={stages.map((s) => s.id).join(',')}
          projectId={projectId}
          stages={stages}
          onClose={onClose}
          onSaved={onSaved}
          rulesDraft={rulesDraft}
        >
          {/* Teams and review rules (docs/review-rules.md): one stage at a time, sent by the same Save. */}
          {stages.length === 1 && stages[0]!.kind === 'stage' ? (
            <>
              <Divider my="xs" />
              <StageReviewRules stageId={stages[0]!.id} projectId={projectId} draftRef={rulesDraft} />
            </>
          ) : null}
        </StageSettingsForm>
      ) : null}
    </Drawer>
  );
}

function StageSettingsForm({
  projectId,
  stages,
  onClose,
  onSaved,
  rulesDraft,
  children,
}: {
  projectId: number;
  stages: TPipelineNode[];
  onClose: () => void;
  onSaved: (stages: TPipelineNode[]) => void;
  /** The review rules section's edits, saved with the settings (decision 201). */
  rulesDraft: RefObject<TRulesDraft>;
  /** Sections drawn inside the form, above its one Save. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const bulk = stages.length > 1;
  const members = useStageMembers(projectId);
  const { values: initial, mixed } = useMemo(() => commonSettings(stages), [stages]);
  const dueMixed = mixed.has('default_due_days') || mixed.has('default_due_date');
  const [touched, setTouched] = useState<Set<TStageField>>(() => new Set(bulk ? [] : StageFields));
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TStageSettings & { due_mode: TDueMode | '' }>({
    initialValues: { ...blankMixed(initial, mixed), due_mode: dueMixed ? '' : dueModeOf(initial) },
    validate: {
      name: (value) => {
        if (bulk && !touched.has('name')) return null;
        return value.trim() ? issueOf(ZStageSettings.shape.name, value, t) : t('Field is required');
      },
      description: (value) => issueOf(ZStageSettings.shape.description, value, t),
      default_due_days: (value, values) => {
        if (values.due_mode !== 'days') return null;
        return value === null ? t('Field is required') : issueOf(ZStageSettings.shape.default_due_days, value, t);
      },
      default_due_date: (value, values) => (values.due_mode === 'date' && !value ? t('Field is required') : null),
      default_estimate_hours: (value) =>
        value === null || value === undefined ? null : issueOf(ZStageSettings.shape.default_estimate_hours, value, t),
    },
  });
  const touch = (...fields: TStageField[]) =>
    setTouched((current) => (fields.every((f) => current.has(f)) ? current : new Set([...current, ...fields])));
  const mixedHint = (field: TStageField) => (mixed.has(field) && !touched.has(field) ? t('Mixed') : undefined);
  const field = <K extends TStageField>(name: K) => {
    const props = form.getInputProps(name);
    return {
      ...props,
      onChange: (value: unknown) => {
        touch(name);
        (props.onChange as (v: unknown) => void)(value);
      },
    };
  };
  const options = useMemo(
    () =>
      (members.data ?? []).map((m) => ({
        value: String(m.id),
        label: m.name || m.username || String(m.id),
      })),
    [members.data],
  );
  const boolField = (name: 'todo_enabled' | 'skip_review_if_no_reviewers' | 'accept_edit_as_done', label: string) => (
    <Checkbox
      label={label}
      checked={form.values[name]}
      indeterminate={mixed.has(name) && !touched.has(name)}
      onChange={(event) => {
        touch(name);
        form.setFieldValue(name, event.currentTarget.checked);
      }}
      data-testid={`stage-settings-${name}`}
    />
  );

  const submit = form.onSubmit(async (raw) => {
    const { due_mode: dueMode, ...values } = raw;
    if (dueMode === 'none') Object.assign(values, { default_due_days: null, default_due_date: null });
    if (dueMode === 'days') values.default_due_date = null;
    if (dueMode === 'date') values.default_due_days = null;
    const changes = changedFields(initial, { ...values, name: values.name.trim() }, touched, mixed);
    const rules = rulesDraft.current;
    const rulesDirty = !bulk && rulesChanged(rules);
    if (Object.keys(changes).length === 0 && !rulesDirty) {
      onClose();
      return;
    }
    setFailure(null);
    try {
      let saved = stages;
      if (Object.keys(changes).length === 0) {
        // Only the review rules changed: the stage's settings stay as they are.
      } else if (bulk) {
        await bulkPatchStages(
          stages.map((s) => s.id),
          changes,
        );
        saved = stages.map((s) => ({ ...s, ...changes }));
      } else {
        saved = [await patchStage(stages[0]!.id, changes)];
      }
      if (rulesDirty) await patchStageRules(rules.stageId, rules.rules);
      onSaved(saved);
      onClose();
    } catch (error) {
      setFailure(formError(error, { fallback: t('Error while updating stage(s)') }));
    }
  });

  const memberSelect = (name: 'default_assignees' | 'default_reviewers', label: string) => {
    const props = field(name);
    return (
      <MultiSelect
        label={label}
        data={options}
        searchable
        clearable
        placeholder={mixedHint(name)}
        value={form.values[name].map(String)}
        onChange={(value) => props.onChange(value.map(Number))}
        error={props.error as string | undefined}
        nothingFoundMessage={t('Nothing found')}
        data-testid={`stage-settings-${name}`}
      />
    );
  };

  return (
    <form onSubmit={submit} noValidate data-testid="stage-settings-form">
      <Stack>
        {bulk ? (
          <Text size="sm" c="dimmed">
            {t('Only the fields you change are applied to every selected stage.')}
          </Text>
        ) : null}
        <TextInput
          label={t('Name')}
          required={!bulk}
          placeholder={mixedHint('name')}
          {...field('name')}
          data-testid="stage-settings-name"
          data-autofocus
        />
        <Textarea
          label={t('Description')}
          autosize
          minRows={2}
          placeholder={mixedHint('description')}
          {...field('description')}
          data-testid="stage-settings-description"
        />
        {memberSelect('default_assignees', t('Default assignees'))}
        {memberSelect('default_reviewers', t('Default reviewers'))}
        <Radio.Group
          label={t('Default due date')}
          value={form.values.due_mode}
          onChange={(value) => {
            touch('default_due_days', 'default_due_date');
            form.setFieldValue('due_mode', value);
          }}
          description={dueMixed && !touched.has('default_due_days') ? t('Mixed') : undefined}
          data-testid="stage-settings-due-mode"
        >
          <Group mt={4}>
            <Radio value="none" label={t('None')} data-testid="stage-settings-due-none" />
            <Radio value="days" label={t('Days after ready')} data-testid="stage-settings-due-days-mode" />
            <Radio value="date" label={t('A date')} data-testid="stage-settings-due-date-mode" />
          </Group>
        </Radio.Group>
        {form.values.due_mode === 'days' ? (
          <NumberInput
            label={t('Days after the task is ready')}
            min={0}
            max={3650}
            clampBehavior="none"
            value={form.values.default_due_days ?? ''}
            onChange={(value) => {
              touch('default_due_days', 'default_due_date');
              form.setFieldValue('default_due_days', typeof value === 'number' ? value : null);
            }}
            error={form.errors.default_due_days}
            data-testid="stage-settings-due-days"
          />
        ) : null}
        {form.values.due_mode === 'date' ? (
          <DatePickerInput
            label={t('Due date')}
            value={form.values.default_due_date}
            onChange={(value) => {
              touch('default_due_days', 'default_due_date');
              form.setFieldValue('default_due_date', value);
            }}
            error={form.errors.default_due_date}
            data-testid="stage-settings-due-date"
          />
        ) : null}
        {/* The estimate each new task of the stage starts with (docs/time.md). */}
        <NumberInput
          label={t('Default estimate, hours')}
          min={0}
          step={0.25}
          decimalScale={2}
          allowNegative={false}
          placeholder={mixedHint('default_estimate_hours')}
          value={form.values.default_estimate_hours ?? ''}
          onChange={(value) => {
            touch('default_estimate_hours');
            form.setFieldValue('default_estimate_hours', typeof value === 'number' ? value : null);
          }}
          error={form.errors.default_estimate_hours}
          data-testid="stage-settings-default-estimate"
        />
        {boolField('todo_enabled', t('To do enabled'))}
        <Select
          label={t('Review mode')}
          allowDeselect={false}
          data={ReviewModes.map((mode) => ({ value: mode, label: t(ReviewModeLabels[mode]) }))}
          value={mixed.has('review_mode') && !touched.has('review_mode') ? null : form.values.review_mode}
          placeholder={mixedHint('review_mode')}
          onChange={(value) => {
            if (!value) return;
            touch('review_mode');
            form.setFieldValue('review_mode', value);
          }}
          data-testid="stage-settings-review_mode"
        />
        {boolField('skip_review_if_no_reviewers', t('Skip review when there are no reviewers'))}
        {boolField('accept_edit_as_done', t('Accept edit as done'))}
        {children}
        {failure ? (
          <Alert color="red" data-testid="stage-settings-error">
            {failure}
          </Alert>
        ) : null}
        {/* One Save for the whole drawer, kept in reach at its foot while the sections scroll. */}
        <Group justify="flex-end" className={classes.drawerActions}>
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={form.submitting} data-testid="stage-settings-save">
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
