import { Alert, Button, Group, List, Select, TagsInput } from '@mantine/core';
import { useState } from 'react';
import { z } from 'zod';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Limits, ZInvite, type TAssignableRole, type TWorkspace } from '@stageline/shared';
import { zodResolver } from '../../../../shared/lib/zod-resolver';
import { showToast } from '../../../../shared/ui/toast';
import { useInviteUsers } from '../../api';
import { reportFailure } from '../../lib/report';
import classes from './invite-users.module.css';
import { assignableRoleOptions, isAssignableRole } from '../../lib/roles';
import { Section } from '../../../../shared/ui/section';

type TValues = { users: string[]; role: TAssignableRole };
/** The box as the form checks it: at least one entry; how long each may be is the report's business. */
const ZInviteBox = ZInvite.extend({ users: z.array(z.string()).min(1).max(100) });
type TReport = { invited: number; errors: { user: string; detail: string }[] };

/** An entry as it is named in the report: a very long one is cut, the report says what it was. */
const shortEntry = (entry: string) => (entry.length > 80 ? `${entry.slice(0, 77)}…` : entry);

/** Direct invites by usernames or e-mails, with the role offered ('Invite as'). */
export function InviteUsersSection({ workspace }: { workspace: TWorkspace }) {
  const { t } = useTranslation();
  const invite = useInviteUsers(workspace.id);
  const form = useForm<TValues>({
    initialValues: { users: [], role: 'member' },
    // Only an empty box stops the form: each entry is judged on its own in the report (decision 196).
    validate: zodResolver<TValues>(ZInviteBox, t),
  });
  const [report, setReport] = useState<TReport | null>(null);

  const submit = async (values: TValues) => {
    // Entries no username or e-mail can be are named at once and not sent; the others still go.
    const tooLong = values.users.filter((user) => user.length > Limits.email.max);
    const send = values.users.filter((user) => user.length <= Limits.email.max);
    const local = tooLong.map((user) => ({ user, detail: t('Not a username or an e-mail: too long.') }));
    try {
      const result = send.length
        ? await invite.mutateAsync(ZInvite.parse({ ...values, users: send }))
        : { invited: 0, failed: 0, errors: [] };
      const errors = [...local, ...result.errors];
      setReport({ invited: result.invited, errors });
      if (result.invited > 0)
        showToast({ kind: 'success', message: t('{{count}} users invited', { count: result.invited }) });
      const failedUsers = errors.map((error) => error.user);
      form.setFieldValue(
        'users',
        values.users.filter((user) => failedUsers.includes(user)),
      );
    } catch (error) {
      setReport(local.length ? { invited: 0, errors: local } : null);
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
            className={classes.tags}
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
        {report && report.errors.length > 0 ? (
          <Alert
            mt="sm"
            color={report.invited > 0 ? 'yellow' : 'red'}
            className={classes.report}
            data-testid="invite-report"
            title={
              report.invited > 0
                ? t('{{invited}} invited; {{count}} users not invited', {
                    invited: report.invited,
                    count: report.errors.length,
                  })
                : t('Users not invited')
            }
          >
            <List size="sm" spacing={2}>
              {report.errors.map((error, index) => (
                <List.Item key={index} data-testid="invite-report-entry" title={error.user}>
                  <b>{shortEntry(error.user)}</b>: {error.detail}
                </List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        <Group justify="flex-end" mt="sm">
          <Button type="submit" loading={form.submitting} data-testid="invite-submit">
            {t('Invite')}
          </Button>
        </Group>
      </form>
    </Section>
  );
}
