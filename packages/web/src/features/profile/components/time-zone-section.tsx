import { Select } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TMe } from '@stageline/shared';
import { browserTimeZone, useTimeZoneStore } from '../../../shared/lib/time-zone';
import { Section } from '../../../shared/ui/section';
import { useSaveMe } from '../hooks/use-save-me';

/** Every zone this browser knows, `UTC` first (`Intl.supportedValuesOf` leaves it out). */
function zoneNames(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [browserTimeZone()];
  return ['UTC', ...known.filter((zone) => zone !== 'UTC')];
}

/**
 * The user's time zone (docs/decisions.md): due dates and times, "Today" and "Tomorrow", and the
 * daily and weekly digests at 07:00 follow it. Detected from the browser at sign-up.
 */
export function TimeZoneSection({ user }: { user: TMe }) {
  const { t } = useTranslation();
  const { save, saving } = useSaveMe(user.id);
  const zones = useMemo(() => zoneNames(), []);
  const current = user.time_zone ?? browserTimeZone();

  const change = async (value: string | null) => {
    if (!value || value === user.time_zone) return;
    await save({ time_zone: value }, () => useTimeZoneStore.getState().set(value));
  };

  return (
    <Section
      title={t('Time zone')}
      description={t('Due dates, “Today” and the morning e-mail digest follow it.')}
      testId="profile-time-zone-section"
    >
      <Select
        label={t('Time zone')}
        data={zones.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }))}
        value={current}
        onChange={(value) => void change(value)}
        searchable
        allowDeselect={false}
        disabled={saving !== null}
        maw={360}
        nothingFoundMessage={t('Nothing found')}
        data-testid="profile-time-zone"
        comboboxProps={{ withinPortal: true }}
      />
    </Section>
  );
}
