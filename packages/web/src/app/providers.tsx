import { localStorageColorSchemeManager, MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { ClientConstants, resolveLanguage, StorageKeys, weekStart } from '@stageline/shared';
import { i18n } from '../shared/i18n';
import { cssVariablesResolver, defaultColorScheme, theme } from './theme';

const colorSchemeManager = localStorageColorSchemeManager({ key: StorageKeys.theme });

/**
 * The toasts' container, loaded after the first render: nothing shows until a toast does, and a
 * toast shown before it arrives waits in Mantine's store. `showToast` needs only that store, so
 * the first load carries neither the container nor its transitions (docs/decisions.md, entry 106).
 */
const Notifications = lazy(async () => ({ default: (await import('@mantine/notifications')).Notifications }));

function LocalizedDates({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  const language = resolveLanguage(instance.resolvedLanguage);
  return <DatesProvider settings={{ locale: language, firstDayOfWeek: weekStart(language) }}>{children}</DatesProvider>;
}

/**
 * The theme with the labels Mantine draws itself translated: the close buttons of every modal,
 * drawer and toast are icon-only, and need a name for screen readers (docs/accessibility.md).
 */
function LocalizedMantine({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const close = t('Close');
  const localized = useMemo(() => {
    const closeButtonProps = { 'aria-label': close, title: close };
    return mergeThemeOverrides(theme, {
      components: {
        Modal: { defaultProps: { closeButtonProps } },
        Drawer: { defaultProps: { closeButtonProps } },
        Notification: { defaultProps: { closeButtonProps } },
      },
    });
  }, [close]);
  return (
    <MantineProvider
      theme={localized}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme={defaultColorScheme}
      colorSchemeManager={colorSchemeManager}
    >
      {children}
    </MantineProvider>
  );
}

/**
 * Theme (light, dark, system), translations, dates and toasts for the whole app. The query cache's
 * provider is not here but on the screens that read queries (`QueryProvider`), so /login's first
 * load carries no TanStack Query (docs/decisions.md, entry 118).
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <LocalizedMantine>
        <LocalizedDates>
          <Suspense fallback={null}>
            <Notifications
              position="bottom-right"
              autoClose={ClientConstants.toastDurationMs}
              transitionDuration={ClientConstants.toastTransitionMs}
            />
          </Suspense>
          {children}
        </LocalizedDates>
      </LocalizedMantine>
    </I18nextProvider>
  );
}
