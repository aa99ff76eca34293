import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from './config';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('loadConfig accepted a bad environment');
}

describe('loadConfig', () => {
  test('has defaults for everything', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      dataDir: path.resolve('./data'),
      smtpUrl: undefined,
      mailFrom: 'Stageline <no-reply@stageline.local>',
      secretKey: undefined,
      publicUrl: undefined,
      maintenance: false,
      debug: false,
      trustProxy: false,
      webhooksAllowPrivate: false,
      metricsToken: undefined,
      slowRequestMs: 1000,
      maxConcurrentRequests: undefined,
      maxQueuedRequests: 1000,
      maxUploadBytes: 100 * 1024 * 1024,
      workspaceQuotaBytes: 5_000 * 1024 * 1024,
      maxOwnedWorkspaces: 10,
      maxUploadsInFlight: 4,
      s3Url: undefined,
      logLevel: 'info',
      env: 'production',
      oauthProviders: [],
    });
  });

  test('configures only the OAuth providers whose variables are set', () => {
    const config = loadConfig({
      OAUTH_GITHUB_CLIENT_ID: 'gh-id',
      OAUTH_GITHUB_CLIENT_SECRET: 'gh-secret',
      OAUTH_GITLAB_CLIENT_ID: 'gl-id',
      OAUTH_GITLAB_CLIENT_SECRET: 'gl-secret',
      OAUTH_GITLAB_ISSUER: 'https://gitlab.example.com/',
      OAUTH_OIDC_ISSUER: 'http://127.0.0.1:9000',
      OAUTH_OIDC_CLIENT_ID: 'oidc-id',
    });
    expect(config.oauthProviders).toEqual([
      { id: 'github', name: 'GitHub', kind: 'github', clientId: 'gh-id', clientSecret: 'gh-secret' },
      {
        id: 'gitlab',
        name: 'GitLab',
        kind: 'oidc',
        issuer: 'https://gitlab.example.com',
        clientId: 'gl-id',
        clientSecret: 'gl-secret',
      },
      {
        id: 'oidc',
        name: 'Single sign-on',
        kind: 'oidc',
        issuer: 'http://127.0.0.1:9000',
        clientId: 'oidc-id',
        clientSecret: undefined,
      },
    ]);
  });

  test('refuses half-configured OAuth providers and insecure issuers', () => {
    expect(problemsOf({ OAUTH_GOOGLE_CLIENT_ID: 'id' })).toEqual([
      'OAUTH_GOOGLE_CLIENT_ID and OAUTH_GOOGLE_CLIENT_SECRET: set both or neither',
    ]);
    expect(problemsOf({ OAUTH_OIDC_ISSUER: 'https://id.example.com' })).toEqual([
      'OAUTH_OIDC_ISSUER and OAUTH_OIDC_CLIENT_ID: set both or neither',
    ]);
    expect(problemsOf({ OAUTH_OIDC_ISSUER: 'http://id.example.com', OAUTH_OIDC_CLIENT_ID: 'x' })).toEqual([
      'OAUTH_OIDC_ISSUER: must be an https:// URL (http:// only for localhost)',
    ]);
  });

  test('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgresql://stageline@db:5432/stageline',
      DATA_DIR: '/var/lib/stageline',
      SMTP_URL: 'smtps://mail.example.com:465',
      MAINTENANCE: 'yes',
      DEBUG: '1',
      TRUST_PROXY: 'on',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgresql://stageline@db:5432/stageline',
      dataDir: '/var/lib/stageline',
      smtpUrl: 'smtps://mail.example.com:465',
      maintenance: true,
      debug: true,
      trustProxy: true,
      logLevel: 'warn',
      env: 'development',
    });
  });

  test.each([
    ['false', false],
    ['0', false],
    ['off', false],
    ['true', true],
  ])('MAINTENANCE=%s is %s', (value, expected) => {
    expect(loadConfig({ MAINTENANCE: value }).maintenance).toBe(expected);
  });

  test('MAX_OWNED_WORKSPACES caps the workspaces one user owns: 10 unless set, a whole number from 1', () => {
    expect(loadConfig({}).maxOwnedWorkspaces).toBe(10);
    expect(loadConfig({ MAX_OWNED_WORKSPACES: '3' }).maxOwnedWorkspaces).toBe(3);
    for (const value of ['0', '2.5', 'many']) {
      expect(problemsOf({ MAX_OWNED_WORKSPACES: value })).toEqual([
        'MAX_OWNED_WORKSPACES: must be a whole number from 1 to 100000',
      ]);
    }
  });

  test('resolves a relative DATA_DIR against the working directory', () => {
    expect(loadConfig({ DATA_DIR: 'var/stageline' }).dataDir).toBe(path.resolve('var/stageline'));
  });

  test('empty strings count as unset', () => {
    const config = loadConfig({ PORT: '', DATABASE_URL: '', PUBLIC_URL: '', MAINTENANCE: '', DATA_DIR: '' });
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      publicUrl: undefined,
      maintenance: false,
      dataDir: path.resolve('./data'),
    });
  });

  test('normalises PUBLIC_URL to its origin', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://Stageline.Example.com:443/app/?x=1#top' }).publicUrl).toBe(
      'https://stageline.example.com',
    );
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:8080/' }).publicUrl).toBe('http://localhost:8080');
  });

  test('lists every problem at once', () => {
    const problems = problemsOf({
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      PUBLIC_URL: 'ftp://example.com',
      MAINTENANCE: 'maybe',
      LOG_LEVEL: 'loud',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT: /),
        'DATABASE_URL: must be a postgres:// or postgresql:// URL',
        'PUBLIC_URL: must be an http:// or https:// URL',
        expect.stringMatching(/^MAINTENANCE: must be true or false/),
        expect.stringMatching(/^LOG_LEVEL: /),
      ]),
    );
    expect(problems).toHaveLength(5);
  });

  test('the error message names each problem', () => {
    expect(() => loadConfig({ PORT: '70000', SMTP_URL: 'http://mail' })).toThrowError(
      /Invalid configuration:\n {2}- PORT: must be 0 to 65535\n {2}- SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
  });

  test('reads SECRET_KEY and refuses a short one', () => {
    const secret = 'x'.repeat(32);
    expect(loadConfig({ SECRET_KEY: secret }).secretKey).toBe(secret);
    expect(problemsOf({ SECRET_KEY: 'short' })).toEqual(['SECRET_KEY: must be at least 32 characters']);
  });

  test('rejects a fractional port', () => {
    expect(problemsOf({ PORT: '80.5' })).toEqual([expect.stringMatching(/^PORT: /)]);
  });
});
