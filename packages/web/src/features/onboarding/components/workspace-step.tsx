import { Alert, Button, Divider, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZWorkspaceCreate, type TWorkspace } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { NameDescriptionFields } from '../../../shared/ui/name-description-fields';
import { InviteUsersSection, PendingInvites, useCreateWorkspace, useMyInvites, useWorkspaces } from '../../workspaces';

type TValues = { name: string; description: string };

/**
 * The workspace: join one you are invited to (offered first: accepting lands in it), create one (you
 * become its owner) or pick one you are in, then optionally invite people by username or e-mail with
 * the role offered, through the workspace settings' own form.
 */
export function WorkspaceStep({
  workspaceId,
  onChosen,
  onNext,
}: {
  workspaceId: number | null;
  onChosen: (id: number) => void;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const workspaces = useWorkspaces();
  const invites = useMyInvites().data ?? [];
  const chosen = workspaces.data?.find((w) => w.id === workspaceId) ?? null;
  // Undecided until the Admin picks: a reload on a chosen workspace shows its invites again once the
  // list has loaded (decision 197), not the picker it would show while the list is on its way.
  const [edited, setEditing] = useState<boolean | null>(null);
  const editing = edited ?? chosen === null;

  if (workspaces.isPending && workspaceId !== null) return <Loader size="sm" />;
  if (chosen && !editing) {
    return <InviteStage workspace={chosen} onChange={() => setEditing(true)} onNext={onNext} />;
  }
  const others = workspaces.data ?? [];
  return (
    <Stack gap="md" maw={560} data-testid="quickstart-workspace">
      <Title order={2}>{t('Your workspace')}</Title>
      {invites.length > 0 ? (
        <>
          <Text data-testid="quickstart-invites-intro">
            {t('You are invited to join a team. Accept to start working in its workspace.')}
          </Text>
          <PendingInvites invites={invites} title={t('Invites waiting for you')} />
          <Divider label={t('or create a workspace of your own')} />
        </>
      ) : null}
      <Text c="dimmed">
        {t('A workspace is your team: its members, their roles and the projects you share. You will be its owner.')}
      </Text>
      {others.length > 0 ? (
        <>
          <Group align="flex-end" gap="sm">
            <Select
              label={t('Use a workspace you are in')}
              data={others.map((w) => ({ value: String(w.id), label: w.name }))}
              defaultValue={String(chosen?.id ?? others[0]!.id)}
              allowDeselect={false}
              style={{ flex: 1 }}
              data-testid="quickstart-workspace-pick"
              onChange={(value) => value && onChosen(Number(value))}
            />
            <Button
              variant="default"
              onClick={() => {
                if (!chosen) onChosen(others[0]!.id);
                setEditing(false);
              }}
              data-testid="quickstart-workspace-use"
            >
              {t('Use this workspace')}
            </Button>
          </Group>
          <Divider label={t('or create a new one')} />
        </>
      ) : null}
      <CreateWorkspaceForm
        onCreated={(workspace) => {
          onChosen(workspace.id);
          setEditing(false);
        }}
      />
    </Stack>
  );
}

function CreateWorkspaceForm({ onCreated }: { onCreated: (workspace: TWorkspace) => void }) {
  const { t } = useTranslation();
  const create = useCreateWorkspace();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<TValues>({
    initialValues: { name: '', description: '' },
    validate: zodResolver<TValues>(ZWorkspaceCreate, t),
  });
  const submit = async (values: TValues) => {
    setProblem(null);
    try {
      onCreated(await create.mutateAsync(ZWorkspaceCreate.parse(values)));
    } catch (error) {
      setProblem(
        formError(error, {
          fields: ['name', 'description'],
          setErrors: form.setErrors,
          fallback: t('Data was not saved'),
        }),
      );
    }
  };
  return (
    <form onSubmit={form.onSubmit((values) => submit(values))} noValidate>
      <Stack gap="sm">
        <NameDescriptionFields form={form} testPrefix="quickstart-workspace" problem={problem} />
        <Group justify="flex-end">
          <Button type="submit" loading={form.submitting} data-testid="quickstart-workspace-create">
            {t('Create workspace')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function InviteStage({
  workspace,
  onChange,
  onNext,
}: {
  workspace: TWorkspace;
  onChange: () => void;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const canInvite = workspace.abilities.invite;
  return (
    <Stack gap="md" data-testid="quickstart-workspace">
      <Title order={2}>{t('Your workspace')}</Title>
      <Alert color="teal" data-testid="quickstart-workspace-chosen">
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm">{t('Workspace: {{name}}', { name: workspace.name })}</Text>
          <Button size="compact-sm" variant="subtle" onClick={onChange}>
            {t('Change')}
          </Button>
        </Group>
      </Alert>
      {canInvite ? (
        <>
          <Text c="dimmed">{t('Invite your team now, or later from the workspace settings. This is optional.')}</Text>
          <InviteUsersSection workspace={workspace} />
        </>
      ) : null}
      <Group justify="flex-end">
        <Button onClick={onNext} data-testid="quickstart-workspace-next">
          {t('Continue')}
        </Button>
      </Group>
    </Stack>
  );
}
