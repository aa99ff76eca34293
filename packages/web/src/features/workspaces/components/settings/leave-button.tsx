import { Button } from '@mantine/core';
import { IconDoorExit } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TWorkspace } from '@stageline/shared';
import { showToast } from '../../../../shared/ui/toast';
import { useLeaveWorkspace } from '../../api';
import { forgetCurrentWorkspace } from '../../current-workspace';
import { reportFailure } from '../../lib/report';
import { ConfirmModal } from '../confirm-modal';

/** Leaving a workspace, after a confirmation; the owner cannot leave (docs/rules.md §Roles). */
export function LeaveWorkspaceButton({ workspace }: { workspace: TWorkspace }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const leave = useLeaveWorkspace(workspace.id);
  const [opened, setOpened] = useState(false);
  if (!workspace.abilities.leave) return null;

  const confirm = async () => {
    try {
      await leave.mutateAsync();
      forgetCurrentWorkspace(workspace.id);
      setOpened(false);
      showToast({ kind: 'success', message: t('You left {{workspace}}', { workspace: workspace.name }) });
      await navigate(paths.app.workspaces());
    } catch (error) {
      reportFailure(error, t('You did not leave the workspace'));
    }
  };

  return (
    <>
      <Button
        color="red"
        variant="light"
        leftSection={<IconDoorExit size={16} />}
        onClick={() => setOpened(true)}
        data-testid="leave-workspace"
      >
        {t('Leave workspace')}
      </Button>
      <ConfirmModal
        opened={opened}
        title={t('Leave workspace')}
        confirmLabel={t('Leave')}
        danger
        loading={leave.isPending}
        onConfirm={() => void confirm()}
        onClose={() => setOpened(false)}
        testId="leave-confirm"
      >
        {t('Leave {{workspace}}? You lose access to its projects until someone invites you again.', {
          workspace: workspace.name,
        })}
      </ConfirmModal>
    </>
  );
}
