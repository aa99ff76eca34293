import {
  Alert,
  Badge,
  Button,
  Center,
  Container,
  Grid,
  Group,
  Loader,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconCheck, IconMessage, IconPencil } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TClientFeedbackKind, TClientSession } from '@stageline/shared/review-sessions';
import { useDocumentTitle } from '../../../shared/ui/document-title';
import { LanguageSwitcher } from '../../../shared/ui/language-switcher';
import { ThemeSwitcher } from '../../../shared/ui/theme-switcher';
import { ClientFeedbackList } from '../../tasks';
import { accessStore, ClientError, clientApi } from '../client-api';
import { Preload, ReviewPlayer, usePlayerKeys } from '../components/review-player';

/**
 * `/review/{token}` (docs/review-sessions.md): a session shared with someone without an account. The
 * link opens (with its password when it has one); they see the items and files, no member of the
 * workspace, type their name, and comment, approve or ask for changes per item as the link allows.
 */
export default function ClientReviewScreen() {
  const { t, i18n } = useTranslation();
  const token = useParams().token ?? '';
  const [access, setAccess] = useState<string | null>(() => accessStore.get(token));
  const [session, setSession] = useState<TClientSession | null>(null);
  const [needsPassword, setNeedsPassword] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useDocumentTitle([session?.name ?? t('Review')]);

  const open = useCallback(
    async (password?: string) => {
      const opened = await clientApi.open(token, password, i18n.language);
      accessStore.set(token, opened.access);
      setAccess(opened.access);
    },
    [token, i18n.language],
  );

  useEffect(() => {
    let stale = false;
    const load = async () => {
      try {
        if (access) {
          const loaded = await clientApi.session(token, access, i18n.language);
          if (!stale) setSession(loaded);
          return;
        }
        const info = await clientApi.info(token, i18n.language);
        if (info.needs_password) setNeedsPassword(true);
        else await open();
      } catch (error) {
        if (stale) return;
        if (error instanceof ClientError && error.status === 401) {
          accessStore.clear(token);
          setAccess(null);
          return;
        }
        setProblem(error instanceof Error ? error.message : t('Unknown error'));
      }
    };
    void load();
    return () => {
      stale = true;
    };
  }, [access, token, open, i18n.language, t]);

  return (
    <Container size="xl" py="md">
      <Group justify="space-between" mb="md">
        <Title order={1} size="h3" data-testid="client-review-title">
          {session?.name ?? t('Review')}
        </Title>
        <Group gap="xs">
          <LanguageSwitcher />
          <ThemeSwitcher />
        </Group>
      </Group>
      {problem ? (
        <Alert color="red" data-testid="client-review-problem">
          {problem}
        </Alert>
      ) : session && access ? (
        <ClientSession token={token} access={access} session={session} onChange={setSession} />
      ) : needsPassword ? (
        <PasswordForm onOpen={open} />
      ) : (
        <Center mih={200}>
          <Loader />
        </Center>
      )}
    </Container>
  );
}

function PasswordForm({ onOpen }: { onOpen: (password: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
        onOpen(password)
          .catch((e: unknown) => setError(e instanceof Error ? e.message : t('Unknown error')))
          .finally(() => setBusy(false));
      }}
    >
      <Stack maw={360} gap="sm">
        <Text>{t('This review is protected by a password.')}</Text>
        <PasswordInput
          label={t('Password')}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={error}
          autoFocus
          data-testid="client-review-password"
        />
        <Button type="submit" loading={busy} data-testid="client-review-open">
          {t('Open')}
        </Button>
      </Stack>
    </form>
  );
}

const nameKey = 'reviewClientName';

function ClientSession({
  token,
  access,
  session,
  onChange,
}: {
  token: string;
  access: string;
  session: TClientSession;
  onChange: (session: TClientSession) => void;
}) {
  const { t, i18n } = useTranslation();
  const [current, setCurrent] = useState(0);
  const [name, setName] = useState(() => localStorage.getItem(nameKey) ?? '');
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<TClientFeedbackKind | null>(null);
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const count = session.items.length;
  const item = session.items[Math.min(current, count - 1)];
  const next = session.items[current + 1];
  const previous = useCallback(() => setCurrent((i) => Math.max(0, i - 1)), []);
  const forward = useCallback(() => setCurrent((i) => Math.min(count - 1, i + 1)), [count]);
  usePlayerKeys(videoRef, { previous, next: forward });

  if (!item) return <Text c="dimmed">{t('This session has no items left.')}</Text>;

  const send = async (kind: TClientFeedbackKind) => {
    setBusy(kind);
    setErrors({});
    try {
      const saved = await clientApi.feedback(token, access, item.id, { name, kind, text }, i18n.language);
      localStorage.setItem(nameKey, name);
      setText('');
      onChange({
        ...session,
        items: session.items.map((i) => (i.id === item.id ? { ...i, feedback: [saved, ...i.feedback] } : i)),
      });
    } catch (error) {
      if (error instanceof ClientError && Object.keys(error.fields).length > 0)
        setErrors(Object.fromEntries(Object.entries(error.fields).map(([k, v]) => [k, v[0] ?? ''])));
      else setErrors({ form: error instanceof Error ? error.message : t('Unknown error') });
    } finally {
      setBusy(null);
    }
  };
  const latest = item.feedback.find((f) => f.kind !== 'comment');

  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 3 }}>
        <Stack gap={4} data-testid="client-review-items">
          {session.items.map((i, index) => {
            const decided = i.feedback.find((f) => f.kind !== 'comment');
            return (
              <Button
                key={i.id}
                variant={index === current ? 'light' : 'subtle'}
                justify="space-between"
                onClick={() => setCurrent(index)}
                data-testid="client-review-item"
                rightSection={
                  decided ? (
                    <Badge size="xs" color={decided.kind === 'approve' ? 'teal' : 'orange'}>
                      {decided.kind === 'approve' ? t('Approved') : t('Changes requested')}
                    </Badge>
                  ) : null
                }
              >
                {index + 1}. {i.unit} · {i.stage}
              </Button>
            );
          })}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 9 }}>
        <Stack gap="sm" data-testid="client-review-current" data-item={item.id}>
          <Group justify="space-between">
            <Text fw={600}>
              {item.unit} · {item.stage}
            </Text>
            <Text size="sm" c="dimmed">
              {t('Round {{round}}', { round: item.round })} · {Math.min(current, count - 1) + 1} / {count}
            </Text>
          </Group>
          <ReviewPlayer key={`player-${item.id}`} files={item.files} videoRef={videoRef} />
          {session.may_comment || session.may_decide ? (
            <Stack gap="xs">
              <TextInput
                label={t('Your name')}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={errors.name}
                maw={320}
                data-testid="client-review-name"
              />
              <Textarea
                label={session.may_comment ? t('Comment') : t('Note (optional)')}
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                error={errors.text}
                autosize
                minRows={2}
                data-testid="client-review-text"
              />
              {errors.form ? (
                <Text c="red" size="sm" data-testid="client-review-error">
                  {errors.form}
                </Text>
              ) : null}
              <Group gap="xs">
                {session.may_decide ? (
                  <>
                    <Button
                      color="teal"
                      leftSection={<IconCheck size={16} />}
                      loading={busy === 'approve'}
                      onClick={() => void send('approve')}
                      data-testid="client-review-approve"
                    >
                      {t('Approve')}
                    </Button>
                    <Button
                      color="orange"
                      variant="light"
                      leftSection={<IconPencil size={16} />}
                      loading={busy === 'changes'}
                      onClick={() => void send('changes')}
                      data-testid="client-review-changes"
                    >
                      {t('Request changes')}
                    </Button>
                  </>
                ) : null}
                {session.may_comment ? (
                  <Button
                    variant="default"
                    leftSection={<IconMessage size={16} />}
                    loading={busy === 'comment'}
                    onClick={() => void send('comment')}
                    data-testid="client-review-comment"
                  >
                    {t('Comment')}
                  </Button>
                ) : null}
              </Group>
              {latest ? (
                <Text size="sm" c="dimmed" data-testid="client-review-decided">
                  {latest.kind === 'approve' ? t('You approved this item.') : t('You asked for changes on this item.')}
                </Text>
              ) : null}
            </Stack>
          ) : null}
          <ClientFeedbackList feedback={item.feedback} title={false} />
          {next ? <Preload files={next.files} /> : null}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
