import { ActionIcon, Button, Group, Select, Text, TextInput, Tooltip } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconCopy, IconLink, IconLinkOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TAssignableRole, TWorkspace } from '@stageline/shared';
import { showToast } from '../../../../shared/ui/toast';
import { inviteLinkUrl, useCreateInviteLink, useDisableInviteLink, useInviteLink } from '../../api';
import { reportFailure } from '../../lib/report';
import { assignableRoleOptions, isAssignableRole } from '../../lib/roles';
import { RoleBadge } from '../role-badge';
import { Section } from '../../../../shared/ui/section';

/** One shareable link per workspace: whoever opens it and signs in joins with the link's role. */
export function InviteLinkSection({ workspace }: { workspace: TWorkspace }) {
  const { t } = useTranslation();
  const link = useInviteLink(workspace.id);
  const create = useCreateInviteLink(workspace.id);
  const disable = useDisableInviteLink(workspace.id);
  const clipboard = useClipboard();
  const [role, setRole] = useState<TAssignableRole>('member');
  const url = link.data ? inviteLinkUrl(link.data.token) : null;

  const generate = async () => {
    try {
      await create.mutateAsync(role);
    } catch (error) {
      reportFailure(error, t('Error while generating link'));
    }
  };
  const turnOff = async () => {
    try {
      await disable.mutateAsync();
      showToast({ kind: 'success', message: t('Link disabled') });
    } catch (error) {
      reportFailure(error, t('Error while disabling link'));
    }
  };
  const copy = () => {
    if (!url) return;
    clipboard.copy(url);
    showToast({ kind: 'success', message: t('Copied') });
  };

  return (
    <Section
      title={t('Invite link')}
      description={t('Anyone with the link can join after signing in. Disable it to stop that.')}
      testId="workspace-link-section"
    >
      {url && link.data ? (
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={t('Link address')}
            value={url}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            style={{ flex: 1, minWidth: 0 }}
            data-testid="link-url"
            rightSection={
              <Tooltip label={t('Copy')}>
                <ActionIcon variant="subtle" onClick={copy} aria-label={t('Copy')} data-testid="link-copy">
                  <IconCopy size={16} />
                </ActionIcon>
              </Tooltip>
            }
          />
          <Button
            color="red"
            variant="light"
            leftSection={<IconLinkOff size={16} />}
            loading={disable.isPending}
            onClick={() => void turnOff()}
            data-testid="link-disable"
          >
            {t('Disable')}
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed" data-testid="link-none">
          {link.isPending ? t('Loading...') : t('There is no active link.')}
        </Text>
      )}
      {link.data ? (
        <Group gap={6}>
          <Text size="sm" c="dimmed">
            {t('Joins as')}
          </Text>
          <RoleBadge role={link.data.role} testId="link-current-role" />
        </Group>
      ) : null}
      <Group gap="xs" align="flex-end">
        <Select
          label={t('Invite as')}
          data={assignableRoleOptions(t)}
          value={role}
          onChange={(value) => isAssignableRole(value) && setRole(value)}
          allowDeselect={false}
          w={160}
          data-testid="link-role"
          comboboxProps={{ withinPortal: true }}
        />
        <Button
          variant={link.data ? 'default' : 'filled'}
          leftSection={<IconLink size={16} />}
          loading={create.isPending}
          onClick={() => void generate()}
          data-testid="link-generate"
        >
          {link.data ? t('Generate a new link') : t('Generate link')}
        </Button>
      </Group>
    </Section>
  );
}
