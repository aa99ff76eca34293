import { Alert, Button, Code, FileInput, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { IconFileImport, IconUpload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TUnitImportResult } from '@stageline/shared';
import { showToast } from '../../../shared/ui/toast';
import { useImportUnits } from '../api';

/** Lines of the file shown before it is sent. */
const previewLines = 6;

/**
 * "Import CSV" on the matrix (for those who may create units): pick a file, see its first lines,
 * check it on the server (a dry run: every problem listed by line and column, translated there),
 * then import it. Import stays disabled until a check passed for this very file.
 */
export function ImportUnitsButton({ project, pipeline }: { project: number; pipeline: number }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconFileImport size={16} />}
        onClick={() => setOpened(true)}
        data-testid="units-import-open"
      >
        {t('Import CSV')}
      </Button>
      {opened ? <ImportUnitsDialog project={project} pipeline={pipeline} onClose={() => setOpened(false)} /> : null}
    </>
  );
}

export function ImportUnitsDialog({
  project,
  pipeline,
  onClose,
}: {
  project: number;
  pipeline: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string[]>([]);
  const [result, setResult] = useState<TUnitImportResult | null>(null);
  const run = useImportUnits();

  const latest = useRef<File | null>(null);

  const choose = (next: File | null) => {
    latest.current = next;
    setFile(next);
    setResult(null);
    setPreview([]);
    if (!next) return;
    // Shown as text, line by line: the server is what reads the fields.
    void next
      .slice(0, 64 * 1024)
      .text()
      .then((text) => {
        if (latest.current === next)
          setPreview(
            text
              .replace(/^\uFEFF/, '')
              .split(/\r\n|\n|\r/)
              .slice(0, previewLines),
          );
      });
  };

  const send = async (dryRun: boolean) => {
    if (!file) return;
    try {
      const answer = await run.mutateAsync({ project, pipeline, file, dryRun });
      setResult(answer);
      if (!dryRun && answer.errors.length === 0) {
        showToast({ kind: 'success', message: t('Units created: {{number}}.', { number: answer.created }) });
        onClose();
      }
    } catch {
      // The transport has shown the error.
    }
  };

  const checked = result !== null && result.dry_run && result.errors.length === 0;
  return (
    <Modal opened onClose={onClose} title={t('Import units from CSV')} size="xl" data-testid="units-import-dialog">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t(
            'Columns: name (required), description, and for any stage “<stage>: assignees” (usernames or e-mails) and “<stage>: due”. Comma or semicolon, UTF-8.',
          )}
        </Text>
        <FileInput
          label={t('CSV file')}
          accept=".csv,text/csv"
          value={file}
          onChange={choose}
          leftSection={<IconUpload size={16} />}
          clearable
          data-testid="units-import-file"
        />
        {preview.length > 0 ? (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('First lines of the file')}
            </Text>
            <Code block data-testid="units-import-preview">
              {preview.join('\n')}
            </Code>
          </Stack>
        ) : null}
        {checked ? (
          <Alert color="teal" data-testid="units-import-ok">
            {t('The file is fine: {{number}} units will be created.', { number: result.created })}
          </Alert>
        ) : null}
        {result && result.errors.length > 0 ? (
          <Stack gap={4} data-testid="units-import-errors">
            <Text size="sm" c="red">
              {t('The file has problems, nothing was imported:')}
            </Text>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Line')}</Table.Th>
                  <Table.Th>{t('Column')}</Table.Th>
                  <Table.Th>{t('Problem')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.errors.map((error, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>{error.line}</Table.Td>
                    <Table.Td>{error.field}</Table.Td>
                    <Table.Td>{error.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button
            variant="light"
            disabled={!file}
            loading={run.isPending && run.variables?.dryRun}
            onClick={() => void send(true)}
            data-testid="units-import-check"
          >
            {t('Check the file')}
          </Button>
          <Button
            disabled={!checked}
            loading={run.isPending && !run.variables?.dryRun}
            onClick={() => void send(false)}
            data-testid="units-import-submit"
          >
            {t('Import')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
