import { Button } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Languages, resolveLanguage, type TLanguage } from '@stageline/shared';
import { SwitcherMenuOnDemand } from './switcher-menu-on-demand';

const names: Record<TLanguage, string> = { en: 'English', ru: 'Русский' };

/** Switches the interface language; the choice is stored under `language`. */
export function LanguageSwitcher({ onChange }: { onChange?: (language: TLanguage) => void }) {
  const { t, i18n } = useTranslation();
  const current = resolveLanguage(i18n.resolvedLanguage);
  return (
    <SwitcherMenuOnDemand
      target={
        <Button
          variant="default"
          leftSection={<IconLanguage size={16} />}
          aria-label={t('Language: {{code}}', { code: current.toUpperCase() })}
          data-testid="language-switcher"
          px="sm"
        >
          {current.toUpperCase()}
        </Button>
      }
      label={t('Language')}
      choices={Languages.map((language) => ({
        key: language,
        label: t(names[language]),
        current: language === current,
        testId: `language-${language}`,
        attributes: { lang: language },
        onSelect: () => {
          void i18n.changeLanguage(language);
          onChange?.(language);
        },
      }))}
    />
  );
}
