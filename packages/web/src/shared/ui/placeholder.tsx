import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageCard } from './page-card';

/** A titled placeholder for a screen a later issue builds (see docs/decisions.md). */
export function Placeholder({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <PageCard title={title}>
      <Text c="dimmed" data-testid="placeholder">
        {t('This screen is being built. It will appear here soon.')}
      </Text>
    </PageCard>
  );
}
