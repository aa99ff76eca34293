import { Badge, Button, Group, Loader, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZApiTokenCreate, type TApiToken, type TApiTokenCreate, type TApiTokenScope } from '@stageline/shared';
import { useDates } from '../../../shared/i18n/use-dates';
import { formError } from '../../../shared/lib/form-errors';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { SecretOnce } from '../../../shared/ui/secret-once';
import { Section } from '../../../shared/ui/section';
import { showToast } from '../../../shared/ui/toast';
import { apiTokensQueryOptions, createApiToken, revokeApiToken } from '../api';
import { LoadError } from '../../../shared/ui/load-error';

type TValues = { name: string; scope: TApiTokenScope; expires: Date | null };

/** The form's values as the API takes them: the expiry date at the end of that day, local time. */
function toInput(values: TValues): TApiTokenCreate {
  return {
    name: values.name,
    scope: values.scope,
    expires_at: values.expires ? dayjs(values.expires).endOf('day').toISOString() : null,
  };
}

/**
 * Personal API tokens (docs/integrations.md): scripts and tools act as you with one. The secret is
 * shown once, right after it is made; the list shows each token's scope and when it was last used.
 */
export function ApiTokensSection() {
  const { t } = useTranslation();
  const dates = useDates();
  const tokens = useQuery(apiTokensQueryOptions());
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<number | null>(null);
  const form = useForm<TValues>({
    initialValues: { name: '', scope: 'read', expires: null },
    validate: (values) => zodResolver<TApiTokenCreate>(ZApiTokenCreate, t)(toInput(values)),
  });

  const create = async (values: TValues) => {
    try {
      const created = await createApiToken(toInput(values));
      setSecret({ name: created.name, token: created.token });
      form.reset();
    } catch (error) {
      const message = formError(error, { fields: ['name', 'scope'], setErrors: form.setErrors });
      if (message) showToast({ kind: 'error', message });
    }
  };

  const revoke = async (token: TApiToken) => {
    setRevoking(token.id);
    try {
      await revokeApiToken(token.id);
      showToast({ kind: 'success', message: t('Token revoked') });
    } catch (error) {
      const message = formError(error, { fallback: t('Data was not saved') });
      if (message) showToast({ kind: 'error', message });
    } finally {
      setRevoking(null);
    }
  };

  const day = (value: string) => dates.formatDate(value);

  return (
    <Section
      title={t('API tokens')}
      description={t('Scripts and tools act as you with a token. Keep it secret; revoke one you no longer use.')}
      testId="profile-api-tokens"
    >
      {secret ? (
        <SecretOnce
          title={t('Token “{{name}}” created', { name: secret.name })}
          message={t('Copy it now: it will not be shown again.')}
          value={secret.token}
          testId="api-token-secret"
          onDone={() => setSecret(null)}
        />
      ) : null}

      <form onSubmit={form.onSubmit((values) => void create(values))} noValidate data-testid="api-token-form">
        <Stack gap="sm">
          <TextInput
            label={t('Token name')}
            placeholder={t('Render farm')}
            required
            data-testid="api-token-name"
            {...form.getInputProps('name')}
          />
          <Group gap="md" align="flex-end" wrap="wrap">
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('Access')}
              </Text>
              <SegmentedControl
                data={[
                  { value: 'read', label: t('Read only') },
                  { value: 'write', label: t('Read and write') },
                ]}
                data-testid="api-token-scope"
                {...form.getInputProps('scope')}
              />
            </Stack>
            <DatePickerInput
              label={t('Expires')}
              placeholder={t('Never')}
              clearable
              minDate={dayjs().add(1, 'day').toDate()}
              valueFormat="YYYY-MM-DD"
              data-testid="api-token-expires"
              style={{ minWidth: 180 }}
              {...form.getInputProps('expires')}
              error={form.errors.expires ?? form.errors.expires_at}
            />
            <Button type="submit" loading={form.submitting} data-testid="api-token-create">
              {t('Create token')}
            </Button>
          </Group>
        </Stack>
      </form>

      {tokens.isPending ? <Loader size="sm" aria-label={t('Loading...')} /> : null}
      {tokens.isError ? <LoadError retry={tokens} /> : null}
      {tokens.data?.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('No tokens yet.')}
        </Text>
      ) : null}
      <Stack gap="sm">
        {(tokens.data ?? []).map((token) => (
          <Group key={token.id} justify="space-between" wrap="nowrap" align="flex-start" data-testid="api-token">
            <div style={{ minWidth: 0, flex: 1 }}>
              <Group gap="xs">
                <Text size="sm" fw={500} truncate>
                  {token.name}
                </Text>
                <Badge size="sm" variant="light" color={token.scope === 'write' ? 'orange' : 'blue'}>
                  {token.scope === 'write' ? t('Read and write') : t('Read only')}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed">
                {[
                  t('created {{when}}', { when: day(token.created_at) }),
                  token.expires_at ? t('expires {{when}}', { when: day(token.expires_at) }) : t('never expires'),
                  token.last_used_at ? t('last used {{when}}', { when: day(token.last_used_at) }) : t('never used'),
                ].join(' · ')}
              </Text>
            </div>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              loading={revoking === token.id}
              onClick={() => void revoke(token)}
              style={{ flexShrink: 0 }}
              data-testid="api-token-revoke"
            >
              {t('Revoke')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Section>
  );
}
