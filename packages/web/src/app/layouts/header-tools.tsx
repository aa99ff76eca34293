import { Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { LanguageSwitcher } from '../../shared/ui/language-switcher';
import { ThemeSwitcher } from '../../shared/ui/theme-switcher';

/** The language and theme switchers every layout shows, with optional extra controls. */
export function HeaderTools({ children }: { children?: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <LanguageSwitcher />
      <ThemeSwitcher />
      {children}
    </Group>
  );
}
