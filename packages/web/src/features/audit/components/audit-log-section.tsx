import { Button, Code, Group, Loader, NumberInput, Select, Stack, Table, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuditLimits, type TWorkspace } from '@stageline/shared';
import { AuditActions, type TAuditAction, type TAuditEntry } from '@stageline/shared/audit';
import { api } from '../../../shared/api';
import { queryClient } from '../../../shared/api/query-client';
import { useDates } from '../../../shared/i18n/use-dates';
import { formError } from '../../../shared/lib/form-errors';
import { ExportCsvButton } from '../../../shared/ui/export-csv-button';
import { LoadError } from '../../../shared/ui/load-error';
import { Section } from '../../../shared/ui/section';
import { showToast } from '../../../shared/ui/toast';
import { useAuditPages, type TAuditFilters } from '../api';

/** What each action is called on screen (keys of audit.json). */
export const auditActionLabels: Record<TAuditAction, string> = {
  'auth.sign_in': 'Signed in',
  'auth.sign_in_failed': 'Failed sign-in',
  'auth.two_factor_on': 'Turned two-factor authentication on',
  'auth.two_factor_off': 'Turned two-factor authentication off',
  'auth.password_changed': 'Changed the password',
  'auth.password_reset': 'Reset the password',
  'auth.email_changed': 'Changed the e-mail',
  'auth.session_revoked': 'Signed a device out',
  'auth.sessions_revoked': 'Signed out other devices',
  'api_token.created': 'Created an API token',
  'api_token.revoked': 'Revoked an API token',
  'member.invited': 'Invited someone',
  'member.invite_cancelled': 'Cancelled an invite',
  'member.joined': 'Joined the workspace',
  'member.role_changed': 'Changed a role',
  'member.removed': 'Removed a member',
  'member.left': 'Left the workspace',
  'workspace.ownership_moved': 'Handed over ownership',
  'workspace.settings_changed': 'Changed settings',
  'webhook.created': 'Added a webhook',
  'webhook.changed': 'Changed a webhook',
  'webhook.deleted': 'Deleted a webhook',
  'export.csv': 'Exported CSV',
  'export.file': 'Downloaded a file',
  'project.deleted': 'Deleted a project',
  'pipeline.deleted': 'Deleted a pipeline',
  'unit.deleted': 'Deleted a unit',
};

type TPerson = { id: number; name: string };

const day = (value: Date | string | null) => (value ? dayjs(value).format('YYYY-MM-DD') : undefined);

/**
 * Workspace settings → Audit log (Admins and the Owner, docs/history-and-audit.md): who did what
 * and from where, newest first, filtered by person, action and days, a page at a time; the
 * filtered log as CSV; and how long entries are kept.
 */
export function AuditLogSection({ workspace, people }: { workspace: TWorkspace; people: TPerson[] }) {
  const { t } = useTranslation();
  const [actor, setActor] = useState<string | null>(null);
  const [action, setAction] = useState<string | null>(null);
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const filters: TAuditFilters = {
    ...(actor ? { actor: Number(actor) } : {}),
    ...(action ? { action: action as TAuditAction } : {}),
    ...(range[0] ? { from: day(range[0]) } : {}),
    ...(range[1] ? { to: day(range[1]) } : {}),
  };
  const pages = useAuditPages(workspace.id, filters);
  const entries = pages.data?.pages.flatMap((page) => page.results) ?? [];

  return (
    <>
      <Section
        title={t('Audit log')}
        description={t('Sign-ins, security changes, people, webhooks, exports and deletions in this workspace.')}
        testId="audit-log-section"
      >
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label={t('Person')}
            placeholder={t('Anyone')}
            clearable
            searchable
            data={people.map((p) => ({ value: String(p.id), label: p.name }))}
            value={actor}
            onChange={setActor}
            data-testid="audit-filter-person"
          />
          <Select
            label={t('Action')}
            placeholder={t('Any action')}
            clearable
            searchable
            data={AuditActions.map((a) => ({ value: a, label: t(auditActionLabels[a]) }))}
            value={action}
            onChange={setAction}
            data-testid="audit-filter-action"
          />
          <DatePickerInput
            type="range"
            label={t('Days')}
            placeholder={t('Any day')}
            clearable
            allowSingleDateInRange
            valueFormat="YYYY-MM-DD"
            value={range}
            onChange={(value) => setRange([value[0] ?? null, value[1] ?? null])}
            data-testid="audit-filter-days"
            style={{ minWidth: 220 }}
          />
          <ExportCsvButton
            path={`workspaces/${workspace.id}/audit/export.csv`}
            query={filters}
            filename="audit-log.csv"
            testId="audit-export"
          />
        </Group>
        {pages.isError ? (
          <LoadError retry={pages} />
        ) : pages.isPending ? (
          <Loader size="sm" />
        ) : entries.length === 0 ? (
          <Text c="dimmed" size="sm" data-testid="audit-empty">
            {t('No entries match.')}
          </Text>
        ) : (
          <Stack gap="xs">
            <AuditTable entries={entries} />
            {pages.hasNextPage ? (
              <Group justify="center">
                <Button
                  variant="default"
                  loading={pages.isFetchingNextPage}
                  onClick={() => void pages.fetchNextPage()}
                  data-testid="audit-more"
                >
                  {t('Show more')}
                </Button>
              </Group>
            ) : null}
          </Stack>
        )}
      </Section>
      {workspace.abilities.update ? <RetentionSection workspace={workspace} /> : null}
    </>
  );
}

function AuditTable({ entries }: { entries: TAuditEntry[] }) {
  const { t } = useTranslation();
  const { formatDate, formatTime } = useDates();
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped verticalSpacing="xs" data-testid="audit-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('When')}</Table.Th>
            <Table.Th>{t('Who')}</Table.Th>
            <Table.Th>{t('What')}</Table.Th>
            <Table.Th>{t('Target')}</Table.Th>
            <Table.Th>{t('Address')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id} data-testid="audit-entry" data-action={entry.action}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {formatDate(entry.created_at)} {formatTime(entry.created_at)}
              </Table.Td>
              <Table.Td>{entry.actor ? `${entry.actor.name} (@${entry.actor.username})` : '—'}</Table.Td>
              <Table.Td>
                <Text size="sm">{t(auditActionLabels[entry.action])}</Text>
                {Object.keys(entry.details).length > 0 ? (
                  <Code fz="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                    {JSON.stringify(entry.details)}
                  </Code>
                ) : null}
              </Table.Td>
              <Table.Td>{entry.target ? (entry.target.name ?? `#${entry.target.id ?? ''}`) : '—'}</Table.Td>
              <Table.Td>
                <Text size="sm">{entry.address ?? '—'}</Text>
                {entry.user_agent ? (
                  <Text size="xs" c="dimmed" lineClamp={1} title={entry.user_agent}>
                    {entry.user_agent}
                  </Text>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** How many days entries are kept (Admins and the Owner). */
function RetentionSection({ workspace }: { workspace: TWorkspace }) {
  const { t } = useTranslation();
  const saved = workspace.audit_retention_days ?? AuditLimits.retentionDays.default;
  const [days, setDays] = useState<number | string>(saved);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.patch(`workspaces/${workspace.id}/`, { audit_retention_days: Number(days) }, { silent: true });
      await queryClient.invalidateQueries({ queryKey: ['workspaces'] });
      showToast({ kind: 'success', message: t('Saved') });
    } catch (caught) {
      setError(formError(caught, { fields: [], fallback: t('Data was not saved') }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section
      title={t('Keep entries')}
      description={t('Entries older than this are deleted every hour. Nobody can change or delete an entry before.')}
      testId="audit-retention-section"
    >
      <Group align="flex-end" gap="sm">
        <NumberInput
          label={t('Days')}
          min={AuditLimits.retentionDays.min}
          max={AuditLimits.retentionDays.max}
          allowDecimal={false}
          value={days}
          onChange={setDays}
          error={error}
          data-testid="audit-retention-days"
        />
        <Button
          onClick={() => void save()}
          loading={busy}
          disabled={Number(days) === saved}
          data-testid="audit-retention-save"
        >
          {t('Save')}
        </Button>
      </Group>
    </Section>
  );
}
