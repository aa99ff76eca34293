import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Loader,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { reviewBypassRoles, TeamLimits, type TStage, type TStageReviewRules } from '@stageline/shared';
import { useProject } from '../../projects';
import { useTeams } from '../../teams';
import { roleLabel } from '../../workspaces';
import { stageQuery } from '../api';

/**
 * The review rules as edited, read by the settings form's one Save (decision 201): `initial` is what
 * the stage has, `rules` what the form shows; null until the stage is loaded.
 */
export type TRulesDraft = { stageId: number; initial: TStageReviewRules; rules: TStageReviewRules } | null;

/** Whether the draft holds a change to save. */
export const rulesChanged = (draft: TRulesDraft): draft is NonNullable<TRulesDraft> =>
  draft !== null && JSON.stringify(draft.initial) !== JSON.stringify(draft.rules);

const rulesOf = (stage: TStage): TStageReviewRules => ({
  required_approvals: stage.required_approvals ?? null,
  allow_self_review: stage.allow_self_review ?? false,
  enforce_review: stage.enforce_review ?? false,
  team_rules: stage.team_rules ?? [],
  default_assignee_teams: stage.default_assignee_teams ?? [],
  default_reviewer_teams: stage.default_reviewer_teams ?? [],
});

/**
 * A stage's teams and review rules (docs/review-rules.md): default assignee and reviewer teams, the
 * approvals a round needs, approvals from teams, whether an assignee may review their own task, and
 * whether only Admins may skip the review (with who can, as the shared rule says). One stage at a
 * time; what is edited goes into `draftRef`, which the settings form's Save sends (decision 201).
 */
export function StageReviewRules({
  stageId,
  projectId,
  draftRef,
}: {
  stageId: number;
  projectId: number;
  draftRef: RefObject<TRulesDraft>;
}) {
  const { t } = useTranslation();
  const stage = useQuery(stageQuery(stageId));
  const project = useProject(projectId);
  const teams = useTeams(project.data?.workspace);
  if (stage.isPending || teams.isPending) return <Loader size="sm" />;
  if (!stage.data) return null;
  const options = (teams.data ?? []).map((team) => ({ value: String(team.id), label: team.name }));
  return (
    <RulesForm
      key={stage.dataUpdatedAt}
      stageId={stageId}
      initial={rulesOf(stage.data)}
      options={options}
      draftRef={draftRef}
      t={t}
    />
  );
}

function RulesForm({
  stageId,
  initial,
  options,
  draftRef,
  t,
}: {
  stageId: number;
  initial: TStageReviewRules;
  options: { value: string; label: string }[];
  draftRef: RefObject<TRulesDraft>;
  t: (key: string, params?: Record<string, unknown>) => string;
}) {
  const [rules, setRules] = useState(initial);
  const set = (patch: Partial<TStageReviewRules>) => setRules((current) => ({ ...current, ...patch }));
  useEffect(() => {
    draftRef.current = { stageId, initial, rules };
    return () => {
      draftRef.current = null;
    };
  }, [draftRef, stageId, initial, rules]);
  const teamSelect = (name: 'default_assignee_teams' | 'default_reviewer_teams', label: string) => (
    <MultiSelect
      label={label}
      data={options}
      searchable
      clearable
      value={rules[name].map(String)}
      onChange={(value) => set({ [name]: value.map(Number) })}
      nothingFoundMessage={t('No teams yet.')}
      data-testid={`stage-rules-${name}`}
    />
  );
  return (
    <Stack gap="sm" data-testid="stage-rules">
      <Title order={3} size="h5">
        {t('Teams and review rules')}
      </Title>
      {teamSelect('default_assignee_teams', t('Default assignee teams'))}
      {teamSelect('default_reviewer_teams', t('Default reviewer teams'))}
      <NumberInput
        label={t('Approvals needed')}
        description={t('Empty: every reviewer in the “each reviewer” modes, one in “any reviewer”.')}
        min={1}
        max={TeamLimits.requiredApprovals}
        value={rules.required_approvals ?? ''}
        onChange={(value) => set({ required_approvals: typeof value === 'number' ? value : null })}
        data-testid="stage-rules-required"
      />
      <Text size="sm" fw={500}>
        {t('Approvals from teams')}
      </Text>
      {rules.team_rules.map((rule, index) => (
        <Group key={index} gap="xs" wrap="nowrap" data-testid="stage-rules-team-rule">
          <Select
            aria-label={t('Team')}
            data={options}
            value={String(rule.team)}
            allowDeselect={false}
            onChange={(value) =>
              value &&
              set({ team_rules: rules.team_rules.map((r, i) => (i === index ? { ...r, team: Number(value) } : r)) })
            }
            style={{ flex: 1 }}
          />
          <NumberInput
            aria-label={t('Approvals from this team')}
            min={1}
            max={TeamLimits.requiredApprovals}
            w={90}
            value={rule.required}
            onChange={(value) =>
              set({
                team_rules: rules.team_rules.map((r, i) =>
                  i === index ? { ...r, required: typeof value === 'number' ? value : 1 } : r,
                ),
              })
            }
          />
          <ActionIcon
            variant="subtle"
            aria-label={t('Remove the rule')}
            onClick={() => set({ team_rules: rules.team_rules.filter((_, i) => i !== index) })}
          >
            <IconX size={14} />
          </ActionIcon>
        </Group>
      ))}
      {options.length > 0 ? (
        <Group>
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => set({ team_rules: [...rules.team_rules, { team: Number(options[0]!.value), required: 1 }] })}
            data-testid="stage-rules-add-team-rule"
          >
            {t('Add a team rule')}
          </Button>
        </Group>
      ) : null}
      <Checkbox
        label={t('An assignee may review their own task')}
        checked={rules.allow_self_review}
        onChange={(event) => set({ allow_self_review: event.currentTarget.checked })}
        data-testid="stage-rules-allow-self-review"
      />
      <Checkbox
        label={t('Enforce for everyone but Admins')}
        description={t('Members cannot set Done by hand or make themselves a reviewer of a task they are assigned to.')}
        checked={rules.enforce_review}
        onChange={(event) => set({ enforce_review: event.currentTarget.checked })}
        data-testid="stage-rules-enforce-review"
      />
      <BypassLine enforce={rules.enforce_review} />
    </Stack>
  );
}

/** Who can skip this stage's review by setting Done by hand (docs/review-rules.md, "Skipping review"). */
function BypassLine({ enforce }: { enforce: boolean }) {
  const { t } = useTranslation();
  const roles = reviewBypassRoles(enforce).map((role) => roleLabel(role, t));
  return (
    <Text size="sm" c="dimmed" data-testid="stage-rules-bypass">
      {t('Who can skip this review (set Done by hand): {{roles}}', { roles: roles.join(', ') })}
    </Text>
  );
}
