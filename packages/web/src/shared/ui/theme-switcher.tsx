import { ActionIcon, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SwitcherMenuOnDemand } from './switcher-menu-on-demand';

const options: { value: MantineColorScheme; label: string; Icon: typeof IconSun }[] = [
  { value: 'light', label: 'Light', Icon: IconSun },
  { value: 'dark', label: 'Dark', Icon: IconMoon },
  { value: 'auto', label: 'System', Icon: IconDeviceDesktop },
];

/** Light, dark or system (stored under `theme`; 'system' follows the OS live). */
export function ThemeSwitcher() {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const current = options.find((o) => o.value === colorScheme) ?? options[2]!;
  return (
    <SwitcherMenuOnDemand
      target={
        <ActionIcon variant="default" size="lg" aria-label={t('Theme')} data-testid="theme-switcher">
          <current.Icon size={18} stroke={1.6} />
        </ActionIcon>
      }
      label={t('Theme')}
      choices={options.map(({ value, label, Icon }) => ({
        key: value,
        label: t(label),
        current: value === colorScheme,
        testId: `theme-${value}`,
        leftSection: <Icon size={16} />,
        attributes: { 'data-active': value === colorScheme || undefined },
        onSelect: () => setColorScheme(value),
      }))}
    />
  );
}
