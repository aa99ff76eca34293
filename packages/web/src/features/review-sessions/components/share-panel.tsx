import { Badge, Button, Checkbox, Group, NumberInput, PasswordInput, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { ReviewSessionLimits, ZReviewLinkCreate, type TReviewLinkCreated } from '@stageline/shared/review-sessions';
import { ApiError } from '../../../shared/api';
import { SecretOnce } from '../../../shared/ui/secret-once';
import { showToast } from '../../../shared/ui/toast';
import { createLink, revokeLink, useLinks } from '../api';

/**
 * Client links of a session (docs/review-sessions.md): a new one (days, password, may comment, may
 * decide), shown once with its address, and the session's links with their state and a Revoke.
 */
export function SharePanel({ sessionId }: { sessionId: number }) {
  const { t, i18n } = useTranslation();
  const links = useLinks(sessionId, true);
  const [days, setDays] = useState<number>(ReviewSessionLimits.linkDays.default);
  const [password, setPassword] = useState('');
  const [mayComment, setMayComment] = useState(true);
  const [mayDecide, setMayDecide] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<TReviewLinkCreated | null>(null);
  const [busy, setBusy] = useState(false);

  const create = async () => {
    const body = { days, may_comment: mayComment, may_decide: mayDecide, ...(password ? { password } : {}) };
    const parsed = ZReviewLinkCreate.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), t(issue.message)])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      setCreated(await createLink(sessionId, body));
      setPassword('');
    } catch (error) {
      const fields = error instanceof ApiError ? (error.body as Record<string, unknown> | undefined) : undefined;
      if (fields && typeof fields === 'object' && !('detail' in fields))
        setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String((v as string[])[0])])));
      else showToast({ kind: 'error', message: error instanceof Error ? error.message : t('Unknown error') });
    } finally {
      setBusy(false);
    }
  };
  const date = (iso: string) => new Date(iso).toLocaleString(i18n.language);

  return (
    <Stack gap="md" data-testid="review-share">
      {created ? (
        <SecretOnce
          title={t('Link created')}
          message={t('Copy it now: it is shown only once.')}
          value={`${window.location.origin}${paths.clientReview(created.token)}`}
          testId="review-link-created"
          onDone={() => setCreated(null)}
        />
      ) : null}
      <Group align="flex-end" gap="sm">
        <NumberInput
          label={t('Days until it expires')}
          min={ReviewSessionLimits.linkDays.min}
          max={ReviewSessionLimits.linkDays.max}
          value={days}
          onChange={(value) => setDays(typeof value === 'number' ? value : Number(value))}
          error={errors.days}
          w={160}
          data-testid="review-link-days"
        />
        <PasswordInput
          label={t('Password (optional)')}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={errors.password}
          w={220}
          data-testid="review-link-password"
        />
      </Group>
      <Group gap="md">
        <Checkbox
          label={t('May comment')}
          checked={mayComment}
          onChange={(e) => setMayComment(e.currentTarget.checked)}
        />
        <Checkbox
          label={t('May approve or ask for changes')}
          checked={mayDecide}
          onChange={(e) => setMayDecide(e.currentTarget.checked)}
          data-testid="review-link-decide"
        />
        <Button onClick={() => void create()} loading={busy} data-testid="review-link-create">
          {t('Create link')}
        </Button>
      </Group>
      <Title order={3} size="h5">
        {t('Links')}
      </Title>
      {links.data && links.data.length > 0 ? (
        <Table.ScrollContainer minWidth={480}>
          <Table data-testid="review-links">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Created')}</Table.Th>
                <Table.Th>{t('Expires')}</Table.Th>
                <Table.Th>{t('Allows')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {links.data.map((link) => (
                <Table.Tr key={link.id} data-testid="review-link-row">
                  <Table.Td>
                    <Text size="sm">{date(link.created_at)}</Text>
                    <Text size="xs" c="dimmed">
                      {link.created_by?.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>{date(link.expires_at)}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {link.has_password ? <Badge size="xs">{t('Password')}</Badge> : null}
                      {link.may_comment ? (
                        <Badge size="xs" variant="light">
                          {t('Comments')}
                        </Badge>
                      ) : null}
                      {link.may_decide ? (
                        <Badge size="xs" variant="light">
                          {t('Decisions')}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {link.active ? (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => void revokeLink(sessionId, link.id)}
                        data-testid="review-link-revoke"
                      >
                        {t('Revoke')}
                      </Button>
                    ) : (
                      <Badge color="gray" size="sm">
                        {link.revoked_at ? t('Revoked') : t('Expired')}
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text size="sm" c="dimmed">
          {t('No links yet.')}
        </Text>
      )}
    </Stack>
  );
}
