import { Alert, Anchor, Code, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TTokenPair } from '@stageline/shared';
import { ApiError } from '../../../shared/api';
import { showToast } from '../../../shared/ui/toast';
import { finishOAuth, isTokens } from '../api';
import { OtpStep } from '../components/otp-step';
import { sanitizeNext } from '../session/next-path';
import { signIn } from '../session/session';

type TState =
  | { kind: 'working' }
  | { kind: 'code'; ephemeralToken: string; next: string | null }
  | { kind: 'failed'; message: string | null; raw: string | null };

/**
 * What a failed answer shows (docs/rules.md §Accounts: "on error an error field or the raw data is shown"):
 * the `detail` or `error` of the body, else the body itself.
 */
export function describeFailure(error: unknown, fallback: string): { message: string | null; raw: string | null } {
  if (!(error instanceof ApiError)) return { message: fallback, raw: null };
  const body = error.body;
  if (body && typeof body === 'object') {
    const fields = body as Record<string, unknown>;
    for (const key of ['detail', 'error_description', 'error']) {
      if (typeof fields[key] === 'string' && fields[key]) return { message: fields[key], raw: null };
    }
    return { message: null, raw: JSON.stringify(body, null, 2) };
  }
  if (typeof body === 'string' && body.trim()) return { message: null, raw: body };
  return { message: error.message || fallback, raw: null };
}

/**
 * `/oauth/{provider}` (and `/oauth?provider=`): where a provider sends the browser back. Hands the
 * code and state to the server, then: signed in → `next` or /app; 2FA → the code step; an account
 * linked from the profile → back to the profile; an error → shown, with a way back to login.
 */
export default function OauthReturnScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const provider = useParams().provider ?? params.get('provider');
  const [state, setState] = useState<TState>({ kind: 'working' });

  const code = params.get('code');
  const oauthState = params.get('state');
  const iss = params.get('iss');
  const providerError = params.get('error');
  const providerErrorText = params.get('error_description');

  // A provider's refusal, or a return without a code, needs no call: it is shown as it is.
  const returned: TState | null = providerError
    ? { kind: 'failed', message: providerErrorText || providerError, raw: null }
    : !provider || !code || !oauthState
      ? { kind: 'failed', message: t('The sign-in did not come back with a code. Please start again.'), raw: null }
      : null;

  useEffect(() => {
    if (providerError || !provider || !code || !oauthState) return;
    let active = true;
    finishOAuth(provider, { code, state: oauthState, ...(iss ? { iss } : {}) })
      .then(async (answer) => {
        if (!active) return;
        const next = sanitizeNext(answer.next);
        if (isTokens(answer)) {
          await signIn(answer);
          if ('linked' in answer && answer.linked) showToast({ kind: 'success', message: t('Account linked.') });
          await navigate(next ?? paths.app.dashboard(), { replace: true });
        } else if ('ephemeral_token' in answer) {
          setState({ kind: 'code', ephemeralToken: answer.ephemeral_token, next });
        } else {
          showToast({ kind: 'success', message: t('Account linked.') });
          await navigate(paths.app.profile(), { replace: true });
        }
      })
      .catch((error: unknown) => {
        if (active) setState({ kind: 'failed', ...describeFailure(error, t('Failed to login')) });
      });
    return () => {
      active = false;
    };
  }, [provider, code, oauthState, iss, providerError, navigate, t]);

  const shown = returned ?? state;
  if (shown.kind === 'code') {
    const finish = async (tokens: TTokenPair) => {
      await signIn(tokens);
      await navigate(shown.next ?? paths.app.dashboard(), { replace: true });
    };
    return <OtpStep ephemeralToken={shown.ephemeralToken} title={t('Two-factor authentication')} onVerified={finish} />;
  }

  if (shown.kind === 'failed') {
    return (
      <Stack gap="md" data-testid="oauth-return-error">
        <Title order={1} size="h3">
          {t('Failed to login')}
        </Title>
        <Alert color="red" role="alert">
          {shown.message ? <Text size="sm">{shown.message}</Text> : null}
          {shown.raw ? (
            <Code block data-testid="oauth-return-raw">
              {shown.raw}
            </Code>
          ) : null}
        </Alert>
        <Anchor component={Link} to={paths.login()} data-testid="oauth-return-login">
          {t('Back to sign in')}
        </Anchor>
      </Stack>
    );
  }

  return (
    <Stack align="center" gap="sm" role="status" aria-live="polite" data-testid="oauth-return-working">
      <Loader />
      <Text fw={500}>{t('Authorization...')}</Text>
    </Stack>
  );
}
