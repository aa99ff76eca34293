import { Button, Menu } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Languages, resolveLanguage, type TLanguage } from '@stageline/shared';

const names: Record<TLanguage, string> = { en: 'English', ru: 'Русский' };

/** Switches the interface language; the choice is stored under `language`. */
export function LanguageSwitcher({ onChange }: { onChange?: (language: TLanguage) => void }) {
  const { t, i18n } = useTranslation();
  const current = resolveLanguage(i18n.resolvedLanguage);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconLanguage size={16} />}
          aria-label={t('Language: {{code}}', { code: current.toUpperCase() })}
          data-testid="language-switcher"
          px="sm"
        >
          {current.toUpperCase()}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('Language')}</Menu.Label>
        {Languages.map((language) => (
          <Menu.Item
            key={language}
            lang={language}
            fw={language === current ? 700 : undefined}
            data-testid={`language-${language}`}
            onClick={() => {
              void i18n.changeLanguage(language);
              onChange?.(language);
            }}
          >
            {t(names[language])}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
