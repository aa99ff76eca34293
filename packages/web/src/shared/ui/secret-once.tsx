import { ActionIcon, Alert, Button, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * A secret the server shows once (an API token, a webhook's signing secret): the value, a copy
 * button, and Done, after which it is gone for good.
 */
export function SecretOnce({
  title,
  message,
  value,
  testId,
  onDone,
}: {
  title: string;
  message: string;
  value: string;
  testId: string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="teal" title={title} data-testid={testId}>
      <Stack gap="xs">
        <Text size="sm">{message}</Text>
        <Group gap="xs" wrap="nowrap">
          <Code style={{ overflowWrap: 'anywhere' }} data-testid={`${testId}-value`}>
            {value}
          </Code>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? t('Copied') : t('Copy')}>
                <ActionIcon variant="subtle" onClick={copy} aria-label={t('Copy')}>
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        <Group justify="flex-end">
          <Button size="xs" variant="subtle" onClick={onDone}>
            {t('Done')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
