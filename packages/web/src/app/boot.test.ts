import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../shared/i18n';
import { useShellStore } from '../shared/lib/shell-store';
import { boot, checkConfig } from './boot';

const config = (overrides: Record<string, unknown> = {}) => ({
  version: '1.0.0',
  maintenance: false,
  debug: false,
  publicUrl: null,
  maxUploadMb: 100,
  maxUploadsInFlight: 4,
  ...overrides,
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const fetchReturning = (response: () => Response | Promise<Response>) =>
  vi.fn(async () => response()) as unknown as typeof fetch;

/** The test DOM's Location cannot be spied on, so the test replaces it with a plain object. */
function stubLocation(href: string) {
  const url = new URL(href);
  const location = {
    href: url.href,
    host: url.host,
    origin: url.origin,
    pathname: url.pathname,
    search: url.search,
    hash: url.hash,
    replace: vi.fn<(url: string) => void>(),
  };
  vi.stubGlobal('location', location);
  return location;
}

beforeAll(() => {
  initI18n();
});

beforeEach(() => {
  useShellStore.setState({ maintenance: false, pageError: null });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('boot', () => {
  it('asks /api/config/ and returns the config', async () => {
    const fetchImpl = fetchReturning(() => json(200, config()));
    await expect(boot(fetchImpl)).resolves.toEqual(config());
    expect(fetchImpl).toHaveBeenCalledWith('/api/config/', expect.anything());
    expect(useShellStore.getState().maintenance).toBe(false);
    expect(useShellStore.getState().pageError).toBeNull();
  });

  it('turns maintenance on when the config says so', async () => {
    await boot(fetchReturning(() => json(200, config({ maintenance: true }))));
    expect(useShellStore.getState().maintenance).toBe(true);
  });

  it('turns maintenance on for a 503', async () => {
    await expect(boot(fetchReturning(() => json(503, { code: 'maintenance' })))).resolves.toBeNull();
    expect(useShellStore.getState().maintenance).toBe(true);
  });

  it('shows a page error when the server cannot be reached', async () => {
    const fetchImpl = vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof fetch;
    await expect(boot(fetchImpl)).resolves.toBeNull();
    expect(useShellStore.getState().pageError).toBe('Server Unavailable. Check your Internet connection or try later.');
    expect(useShellStore.getState().maintenance).toBe(false);
  });

  it('shows a page error when the answer is not a config', async () => {
    await boot(fetchReturning(() => new Response('<html>proxy error</html>', { status: 500 })));
    expect(useShellStore.getState().pageError).toBe('Server Unavailable. Check your Internet connection or try later.');
  });

  it('shows a page error, once zod has checked it, when a JSON answer is not a config', async () => {
    const answer = await boot(fetchReturning(() => json(200, { hello: 'proxy' })));
    expect(useShellStore.getState().pageError).toBeNull();
    await checkConfig(answer);
    expect(useShellStore.getState().pageError).toBe('Server Unavailable. Check your Internet connection or try later.');
  });

  it('leaves a config that passes its schema alone', async () => {
    await checkConfig(await boot(fetchReturning(() => json(200, config()))));
    expect(useShellStore.getState().pageError).toBeNull();
  });

  it('sends a browser on another host to the public URL with the same path, query and hash', async () => {
    const location = stubLocation('http://old.example.com:8080/app/projects/5?tab=units#top');
    await boot(fetchReturning(() => json(200, config({ publicUrl: 'https://stageline.example.org/' }))));
    expect(location.replace).toHaveBeenCalledExactlyOnceWith(
      'https://stageline.example.org/app/projects/5?tab=units#top',
    );
  });

  it('does not redirect on the public host itself', async () => {
    const location = stubLocation('https://stageline.example.org/app?x=1');
    await boot(fetchReturning(() => json(200, config({ publicUrl: 'https://stageline.example.org/some/base' }))));
    expect(location.replace).not.toHaveBeenCalled();
  });

  it('does not redirect without a public URL', async () => {
    const location = stubLocation('https://anywhere.example.net/app');
    await boot(fetchReturning(() => json(200, config())));
    expect(location.replace).not.toHaveBeenCalled();
  });
});
