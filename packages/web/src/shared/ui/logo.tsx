import { Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** The product mark: three stages joined by edges, and the name (the mark alone on phones, where the header is full). */
export function Logo({ to = '/', compact = false }: { to?: string; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <Link to={to} style={{ textDecoration: 'none', color: 'inherit' }} aria-label={t('Stageline')}>
      <Group gap={8} wrap="nowrap">
        <svg width="28" height="28" viewBox="0 0 28 28" aria-hidden="true">
          <path
            d="M6 14h6M16 14l4-6M16 14l4 6"
            stroke="var(--mantine-primary-color-filled)"
            strokeWidth="2"
            fill="none"
          />
          <circle cx="5" cy="14" r="3.5" fill="var(--mantine-primary-color-filled)" />
          <rect x="11" y="10.5" width="7" height="7" rx="2" fill="var(--mantine-primary-color-filled)" />
          <circle cx="22" cy="7" r="3" fill="var(--mantine-color-teal-6)" />
          <circle cx="22" cy="21" r="3" fill="var(--mantine-color-teal-6)" />
        </svg>
        <Text fw={700} size="lg" visibleFrom={compact ? 'xs' : undefined}>
          {t('Stageline')}
        </Text>
      </Group>
    </Link>
  );
}
