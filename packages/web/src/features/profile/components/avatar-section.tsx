import { Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Limits, type TMe } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { showToast } from '../../../shared/ui/toast';
import { displayName, UserAvatar } from '../../auth';
import { clearAvatar, uploadAvatar } from '../api';

const avatarTypes = ['image/png', 'image/jpeg', 'image/webp'];

/** Why a file cannot be an avatar (PNG, JPEG or WebP up to 2 MB, docs/rules.md §Limits), or null. */
export function avatarProblem(file: { type: string; size: number }): 'type' | 'size' | null {
  if (!avatarTypes.includes(file.type)) return 'type';
  if (file.size > Limits.avatar.maxBytes) return 'size';
  return null;
}

/** The avatar with its name, upload and clear. */
export function AvatarBlock({ user }: { user: TMe }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'upload' | 'clear' | null>(null);

  const upload = async (file: File | null) => {
    if (!file) return;
    const problem = avatarProblem(file);
    if (problem) {
      showToast({
        kind: 'error',
        message: problem === 'type' ? t('Choose a PNG, JPEG or WebP image.') : t('The image is larger than 2 MB.'),
      });
      return;
    }
    setBusy('upload');
    try {
      await uploadAvatar(file);
      showToast({ kind: 'success', message: t('Avatar saved') });
    } catch (error) {
      // The server says why (not an image it can read, too large): that is the message.
      const reason = formError(error, {});
      if (reason) showToast({ kind: 'error', title: t('The avatar was not changed'), message: reason });
    } finally {
      setBusy(null);
    }
  };

  const clear = async () => {
    setBusy('clear');
    try {
      await clearAvatar();
      showToast({ kind: 'success', message: t('Avatar cleared') });
    } catch (error) {
      const message = formError(error, { fallback: t('Data was not saved') });
      if (message) showToast({ kind: 'error', message });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Group gap="lg" wrap="wrap" data-testid="profile-avatar-section">
      <UserAvatar user={user} size={88} radius={88} data-testid="profile-avatar" />
      <Stack gap={6}>
        <div>
          <Text fw={600} size="lg">
            {displayName(user)}
          </Text>
          <Text size="sm" c="dimmed">
            @{user.username} · {user.email}
          </Text>
        </div>
        <Group gap="xs">
          <FileButton
            onChange={(file) => void upload(file)}
            accept={avatarTypes.join(',')}
            inputProps={{ 'data-testid': 'profile-avatar-file' } as object}
          >
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="light"
                leftSection={<IconUpload size={14} />}
                loading={busy === 'upload'}
                data-testid="profile-avatar-upload"
              >
                {t('Change avatar')}
              </Button>
            )}
          </FileButton>
          {user.avatar ? (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={14} />}
              loading={busy === 'clear'}
              onClick={() => void clear()}
              data-testid="profile-avatar-clear"
            >
              {t('Clear avatar')}
            </Button>
          ) : null}
        </Group>
        <Text size="xs" c="dimmed">
          {t('PNG, JPEG or WebP, up to 2 MB.')}
        </Text>
      </Stack>
    </Group>
  );
}
