import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import type { TQuery } from '../api/client';
import { currentLanguage } from '../i18n';

/** Saves a Blob as a download named `filename` (through an object URL, freed straight after). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * "Export CSV": fetches a CSV export through the API client (bearer token, refresh, errors as
 * everywhere) and saves it. In Russian the fields are separated by semicolons, as Excel in that
 * locale expects (docs/integrations.md, "CSV").
 */
export function ExportCsvButton({
  path,
  query,
  filename,
  testId,
}: {
  path: string;
  query?: TQuery;
  filename: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const delimiter = currentLanguage() === 'ru' ? 'semicolon' : 'comma';
      saveBlob(await api.download(path, { query: { ...query, delimiter } }), filename);
    } catch {
      // The client has already said what went wrong.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} />}
      loading={busy}
      onClick={() => void run()}
      data-testid={testId}
    >
      {t('Export CSV')}
    </Button>
  );
}
