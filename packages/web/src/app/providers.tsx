import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { ClientConstants, resolveLanguage, StorageKeys } from '@stageline/shared';
import { weekStart } from '@stageline/shared/dates';
import { queryClient } from '../shared/api/query-client';
import { i18n } from '../shared/i18n';
import { theme } from './theme';

const colorSchemeManager = localStorageColorSchemeManager({ key: StorageKeys.theme });

function LocalizedDates({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  const language = resolveLanguage(instance.resolvedLanguage);
  return <DatesProvider settings={{ locale: language, firstDayOfWeek: weekStart(language) }}>{children}</DatesProvider>;
}

/** Theme (light, dark, system), translations, dates, toasts and the query cache for the whole app. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
        <LocalizedDates>
          <Notifications
            position="bottom-right"
            autoClose={ClientConstants.toastDurationMs}
            transitionDuration={ClientConstants.toastTransitionMs}
          />
          <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
        </LocalizedDates>
      </MantineProvider>
    </I18nextProvider>
  );
}
