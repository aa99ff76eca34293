import { Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ApiError, shownByTransport } from '../../../shared/api';
import { showToast } from '../../../shared/ui/toast';

export const isServerError = (error: unknown) => error instanceof ApiError && error.status >= 500;

/**
 * Reports a failed call of a silent request: `title` says what did not happen, the server's detail
 * (already translated) says why. Nothing when the transport has told the user already.
 */
export function reportFailure(error: unknown, title: string): void {
  if (shownByTransport(error)) return;
  const detail = error instanceof ApiError && !isServerError(error) ? error.message : '';
  if (detail && detail !== title) showToast({ kind: 'error', title, message: detail });
  else showToast({ kind: 'error', message: title });
}

/** A toast with one line per item (each user a bulk action or an invite failed for). */
export function showListToast(kind: 'error' | 'warning', title: string, lines: string[]): void {
  notifications.show({
    title,
    color: kind === 'error' ? 'red' : 'yellow',
    message: (
      <Stack gap={2}>
        {lines.map((line, index) => (
          <Text key={index} size="sm">
            {line}
          </Text>
        ))}
      </Stack>
    ),
  });
}
