import * as oidc from 'openid-client';
import type { OAuthProviderConfig } from '../../config';
import { fetchGithubProfile, githubMetadata, githubScope } from './github';
import { oidcProfile, type OAuthProfile } from './profile';

/** What one round trip to a provider needs besides the code: the checks made when it started. */
export type FlowSecrets = { state: string; verifier: string; nonce?: string; redirectUri: string };

/** One configured provider: builds its authorization URL and turns a code into a profile. */
export type OAuthClient = {
  id: OAuthProviderConfig['id'];
  name: string;
  /** OpenID Connect (sends and checks a nonce) or plain OAuth 2 (GitHub). */
  isOidc: boolean;
  authorizationUrl(input: { redirectUri: string; state: string; codeChallenge: string; nonce?: string }): Promise<URL>;
  /** Exchanges the code of `callback` (PKCE, state and nonce checked) and reads the profile. */
  profile(callback: URL, secrets: FlowSecrets): Promise<OAuthProfile>;
};

const timeoutSeconds = 10;
/** Discovery documents are re-read after an hour, so a provider's key or endpoint change is picked up. */
const discoveryTtlMs = 3_600_000;

const isLoopback = (url: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

function clientAuth(provider: OAuthProviderConfig): oidc.ClientAuth {
  return provider.clientSecret ? oidc.ClientSecretPost(provider.clientSecret) : oidc.None();
}

/** The openid-client configuration of a provider: discovered (cached) for OIDC, fixed for GitHub. */
function configurationOf(provider: OAuthProviderConfig): () => Promise<oidc.Configuration> {
  if (provider.kind === 'github') {
    const config = new oidc.Configuration(
      githubMetadata,
      provider.clientId,
      provider.clientSecret,
      clientAuth(provider),
    );
    config.timeout = timeoutSeconds;
    return () => Promise.resolve(config);
  }
  const issuer = new URL(provider.issuer!);
  let cached: { at: number; config: Promise<oidc.Configuration> } | null = null;
  return () => {
    if (!cached || Date.now() - cached.at > discoveryTtlMs) {
      const config = oidc
        .discovery(issuer, provider.clientId, provider.clientSecret, clientAuth(provider), {
          // Plain http is accepted only for an issuer on this machine (config.ts refuses others).
          execute: issuer.protocol === 'http:' && isLoopback(issuer) ? [oidc.allowInsecureRequests] : [],
          timeout: timeoutSeconds,
        })
        .catch((error: unknown) => {
          cached = null; // try again on the next sign-in rather than caching the failure
          throw error;
        });
      cached = { at: Date.now(), config };
    }
    return cached.config;
  };
}

function createClient(provider: OAuthProviderConfig): OAuthClient {
  const configuration = configurationOf(provider);
  const isOidc = provider.kind === 'oidc';
  return {
    id: provider.id,
    name: provider.name,
    isOidc,
    async authorizationUrl({ redirectUri, state, codeChallenge, nonce }) {
      const params: Record<string, string> = {
        redirect_uri: redirectUri,
        scope: isOidc ? 'openid email profile' : githubScope,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      };
      if (isOidc && nonce) params.nonce = nonce;
      return oidc.buildAuthorizationUrl(await configuration(), params);
    },
    async profile(callback, secrets) {
      const config = await configuration();
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: secrets.verifier,
        expectedState: secrets.state,
        ...(isOidc ? { expectedNonce: secrets.nonce, idTokenExpected: true } : {}),
      });
      if (!isOidc) return fetchGithubProfile(tokens.access_token);
      const claims = tokens.claims();
      if (!claims) throw new Error('The provider answered no ID token');
      let userinfo: Record<string, unknown> = {};
      if (config.serverMetadata().userinfo_endpoint) {
        userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      }
      return oidcProfile({ ...claims, ...userinfo, sub: claims.sub });
    },
  };
}

/** The configured providers by id, in the order of the configuration. */
export function createOAuthClients(providers: OAuthProviderConfig[]): Map<string, OAuthClient> {
  return new Map(providers.map((provider) => [provider.id, createClient(provider)]));
}
