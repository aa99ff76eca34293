import { Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TWorkspace } from '@stageline/shared';
import { shownByTransport } from '../../../../shared/api';
import { showToast } from '../../../../shared/ui/toast';
import { Section } from '../../../../shared/ui/section';
import { useUpdateWorkspace } from '../../api';

/** Who shares review sessions with clients (docs/review-sessions.md): Admins, and Members when this is on. */
export function ReviewSharingSection({ workspace }: { workspace: TWorkspace }) {
  const { t } = useTranslation();
  const update = useUpdateWorkspace(workspace.id);
  return (
    <Section
      title={t('Client review links')}
      description={t('Admins share review sessions with clients through links. Members may too when this is on.')}
      testId="workspace-review-sharing"
    >
      <Switch
        label={t('Members may share review sessions with clients')}
        checked={workspace.members_share_reviews ?? false}
        disabled={update.isPending}
        onChange={(event) => {
          update
            .mutateAsync({ members_share_reviews: event.currentTarget.checked })
            .then(() => showToast({ kind: 'success', message: t('Saved') }))
            .catch((error: unknown) => {
              if (!shownByTransport(error)) showToast({ kind: 'error', message: t('Data was not saved') });
            });
        }}
        data-testid="workspace-members-share-reviews"
      />
    </Section>
  );
}
