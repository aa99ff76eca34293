import { Button, Group, Select, TagsInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ZInvite, type TAssignableRole, type TWorkspace } from '@stageline/shared';
import { zodResolver } from '../../../../shared/lib/zod-resolver';
import { showToast } from '../../../../shared/ui/toast';
import { useInviteUsers } from '../../api';
import { reportFailure, showListToast } from '../../lib/report';
import { assignableRoleOptions, isAssignableRole } from '../../lib/roles';
import { Section } from '../../../../shared/ui/section';

type TValues = { users: string[]; role: TAssignableRole };

/** Direct invites by usernames or e-mails, with the role offered ('Invite as'). */
export function InviteUsersSection({ workspace }: { workspace: TWorkspace }) {
  const { t } = useTranslation();
  const invite = useInviteUsers(workspace.id);
  const form = useForm<TValues>({
    initialValues: { users: [], role: 'member' },
    validate: (values) => {
      const errors = zodResolver<TValues>(ZInvite, t)(values);
      // An error of one item (`users.2`) is shown on the whole input.
      const itemError = Object.entries(errors).find(([path]) => path.startsWith('users.'))?.[1];
      return itemError && !errors.users ? { ...errors, users: itemError } : errors;
    },
  });

  const submit = async (values: TValues) => {
    try {
      const result = await invite.mutateAsync(ZInvite.parse(values));
      const lines = result.errors.map((error) => `${error.user}: ${error.detail}`);
      if (result.invited === 0 && result.failed > 0) {
        showListToast('error', t('Users not invited'), lines);
        return;
      }
      showToast({ kind: 'success', message: t('{{count}} users invited', { count: result.invited }) });
      if (result.failed > 0)
        showListToast('warning', t('{{count}} users not invited', { count: result.failed }), lines);
      const failedUsers = result.errors.map((error) => error.user);
      form.setFieldValue(
        'users',
        values.users.filter((user) => failedUsers.includes(user)),
      );
    } catch (error) {
      reportFailure(error, t('Users not invited'));
    }
  };

  return (
    <Section
      title={t('Invite users')}
      description={t('Enter usernames or e-mails; press Enter after each. We e-mail each of them an invite.')}
      testId="workspace-invite-section"
    >
      <form onSubmit={form.onSubmit((values) => submit(values))} noValidate>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TagsInput
            label={t('Usernames or e-mails')}
            placeholder={t('username or name@example.com')}
            splitChars={[',', ' ', ';']}
            clearable
            style={{ flex: '1 1 280px' }}
            data-testid="invite-users-input"
            {...form.getInputProps('users')}
          />
          <Select
            label={t('Invite as')}
            data={assignableRoleOptions(t)}
            allowDeselect={false}
            w={160}
            data-testid="invite-role"
            comboboxProps={{ withinPortal: true }}
            value={form.values.role}
            onChange={(value) => isAssignableRole(value) && form.setFieldValue('role', value)}
          />
        </Group>
        <Group justify="flex-end" mt="sm">
          <Button type="submit" loading={form.submitting} data-testid="invite-submit">
            {t('Invite')}
          </Button>
        </Group>
      </form>
    </Section>
  );
}
