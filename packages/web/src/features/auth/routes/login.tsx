import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TLogin, type TTokenPair } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { whenIdle } from '../../../shared/lib/when-idle';
import { isTokens, login, unverifiedEmailToken } from '../api';
import { authSchemas, loadAuthSchemas } from '../lib/auth-schemas';
import { takePrerenderedLogin } from '../lib/prerendered-login';
import { registerPath, sanitizeNext } from '../session/next-path';
import { useAccessToken } from '../session/access';

/**
 * The code step, shown after a sign-in that needs one: fetched when the form is sent, not with the
 * form (docs/decisions.md, entry 118).
 */
const loadOtpStep = () => import('../components/otp-step');
const OtpStep = lazy(async () => ({ default: (await loadOtpStep()).OtpStep }));
/** The OAuth buttons read their providers through TanStack Query: they arrive after the first render. */
const OAuthButtons = lazy(async () => ({ default: (await import('../components/oauth-buttons')).OAuthButtons }));
/** Signing in fills the query cache (users/me/): fetched when the form is sent, with TanStack Query. */
const loadSession = () => import('../session/session');

type TCodeReason = 'two_factor' | 'verify' | 'locked';
type TStep = { kind: 'form' } | { kind: 'code'; ephemeralToken: string; reason: TCodeReason; notice?: string };
type TProblem = { kind: 'failed'; message: string } | { kind: 'unverified'; ephemeralToken: string | null };

/**
 * `/login` (docs/rules.md §Accounts): username or e-mail and password. The answer is either the tokens, or
 * an ephemeral token for the code step (2FA). An unverified e-mail answers 403 with an ephemeral
 * token, a new code having been e-mailed: the code step verifies it (and can send another).
 * After signing in the user goes back to `next` (the prop, else the query), or to /app.
 */
export default function LoginScreen({ next: nextProp }: { next?: string } = {}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = nextProp ?? sanitizeNext(params.get('next'));
  // With a session already (its tokens are kept), the screen sends the user on.
  const access = useAccessToken();
  const [alreadySignedIn] = useState(access !== null);
  const [step, setStep] = useState<TStep>({ kind: 'form' });

  const finish = async (tokens: TTokenPair) => {
    await (await loadSession()).signIn(tokens);
    await navigate(next ?? paths.app.dashboard(), { replace: true });
  };

  if (alreadySignedIn) return <Navigate to={next ?? paths.app.dashboard()} replace />;

  if (step.kind === 'code') {
    return (
      <Suspense fallback={null}>
        <OtpStep
          ephemeralToken={step.ephemeralToken}
          title={
            step.reason === 'verify'
              ? t('Confirm your e-mail')
              : step.reason === 'locked'
                ? t('Finish signing in')
                : t('Two-factor authentication')
          }
          notice={step.notice}
          canResend={step.reason !== 'locked'}
          onVerified={finish}
          onBack={() => setStep({ kind: 'form' })}
        />
      </Suspense>
    );
  }
  return (
    <LoginForm
      next={next}
      onTokens={finish}
      onCode={(ephemeralToken, reason, notice) => setStep({ kind: 'code', ephemeralToken, reason, notice })}
    />
  );
}

function LoginForm({
  next,
  onTokens,
  onCode,
}: {
  next: string | null;
  onTokens: (tokens: TTokenPair) => Promise<void>;
  onCode: (ephemeralToken: string, reason: TCodeReason, notice?: string) => void;
}) {
  const { t } = useTranslation();
  const [problem, setProblem] = useState<TProblem | null>(null);
  // The shared schema checks the form; it arrives after the first render (`send` waits for it).
  const form = useForm<TLogin>({
    initialValues: { username: '', password: '' },
    validate: (values) => {
      const schemas = authSchemas();
      return schemas ? schemas.zodResolver<TLogin>(schemas.ZLogin, t)(values) : {};
    },
  });
  const usernameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  // Over the prerendered page: what was typed there before the app took over, and the caret's field.
  // A layout effect, so the filled form is what first paints.
  useLayoutEffect(() => {
    const typed = takePrerenderedLogin();
    if (!typed) return;
    form.setValues({ username: typed.username, password: typed.password });
    const input =
      typed.focused === 'username'
        ? usernameInput.current
        : typed.focused === 'password'
          ? passwordInput.current
          : null;
    if (input) {
      input.focus();
      const end = (typed.focused === 'username' ? typed.username : typed.password).length;
      input.setSelectionRange(end, end);
    }
    // Once, on mount: `form` is a new object each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Fetched when the browser is idle after the first render, so a press of the button rarely waits.
  useEffect(() => whenIdle(() => void loadAuthSchemas().catch(() => undefined)), []);

  const submit = async (values: TLogin) => {
    setProblem(null);
    void loadOtpStep().catch(() => undefined);
    void loadSession().catch(() => undefined);
    try {
      const { ZLogin } = await loadAuthSchemas();
      const answer = await login(ZLogin.parse(values));
      if (isTokens(answer)) await onTokens(answer);
      // With a `detail`, the account had too many failed sign-ins: the server says what to do.
      else if (answer.detail) onCode(answer.ephemeral_token, 'locked', answer.detail);
      else onCode(answer.ephemeral_token, 'two_factor');
    } catch (error) {
      const unverified = unverifiedEmailToken(error);
      if (unverified !== undefined) {
        setProblem({ kind: 'unverified', ephemeralToken: unverified });
        return;
      }
      const message = formError(error, { fields: ['username', 'password'], setErrors: form.setErrors });
      if (message !== null) setProblem({ kind: 'failed', message: loginMessage(error, message, t) });
    }
  };

  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Validation needs the schemas: once they are here, the form checks and sends as Mantine's does.
    void loadAuthSchemas().then(
      () => form.onSubmit((values) => submit(values))(),
      (error: unknown) => setProblem({ kind: 'failed', message: loginMessage(error, String(error), t) }),
    );
  };

  return (
    <form onSubmit={send} noValidate data-testid="login-form">
      <Stack gap="md">
        <Title order={1} size="h3">
          {t('Sign in')}
        </Title>
        {problem?.kind === 'failed' ? (
          <Alert color="red" role="alert" data-testid="login-error">
            {problem.message}
          </Alert>
        ) : null}
        {problem?.kind === 'unverified' ? (
          <Alert color="yellow" role="alert" data-testid="login-unverified" title={t('Your email is not verified')}>
            <Stack gap="xs" align="flex-start">
              {problem.ephemeralToken ? (
                <>
                  <Text size="sm">{t('We have e-mailed you a new code to confirm it.')}</Text>
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => onCode(problem.ephemeralToken!, 'verify')}
                    data-testid="login-verify-email"
                  >
                    {t('Enter the code')}
                  </Button>
                </>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
        <TextInput
          label={t('Username or e-mail')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          data-testid="login-username"
          ref={usernameInput}
          {...form.getInputProps('username')}
        />
        <PasswordInput
          label={t('Password')}
          autoComplete="current-password"
          required
          data-testid="login-password"
          ref={passwordInput}
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end" mt={-8}>
          <Anchor component={Link} to={paths.resetPassword()} size="sm" data-testid="login-forgot">
            {t("Can't sign in?")}
          </Anchor>
        </Group>
        {/* Prerendered (no document: the build renders it for the server's /login page), the button is
            off until the app takes over, so Enter cannot send the form natively with the password in the URL. */}
        <Button
          type="submit"
          fullWidth
          loading={form.submitting}
          disabled={typeof document === 'undefined'}
          data-testid="login-submit"
        >
          {t('Log in')}
        </Button>
        <Suspense fallback={null}>
          <OAuthButtons next={next} />
        </Suspense>
        <Text size="sm" ta="center">
          {t('No account yet?')}{' '}
          <Anchor component={Link} to={registerPath(next)} data-testid="login-register">
            {t('Register')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}

/** Wrong credentials read 'Failed to login'; other refusals (429, 403) keep the server's words. */
function loginMessage(error: unknown, message: string, t: (key: string) => string): string {
  const status = (error as { status?: number }).status;
  return status === 400 || status === 401 || status === undefined ? t('Failed to login') : message;
}
