import type { TPublicConfig } from '@stageline/shared';
import { setUploadLimit } from '../features/attachments';
import { purgeStalePipelineStates } from '../features/pipelines';
import { setDebug } from '../shared/api';
import { i18n } from '../shared/i18n';
import { useShellStore } from '../shared/lib/shell-store';

const unavailable = () =>
  useShellStore.getState().setPageError(i18n.t('Server Unavailable. Check your Internet connection or try later.'));

/**
 * Checks what `boot` read against the config's shared schema (`./public-config`, with zod), called
 * once the first render is under way: an answer that is not a config (another server at that
 * address) ends with the same page error as an unreachable server, only after the first render
 * instead of before it (docs/decisions.md, entry 118). Nothing to check after a failed boot (null).
 */
export async function checkConfig(answer: unknown): Promise<void> {
  if (answer === null) return;
  try {
    const { ZPublicConfig } = await import('./public-config');
    ZPublicConfig.parse(answer);
  } catch {
    unavailable();
  }
}

/**
 * Reads `/api/config/` before the first render: maintenance mode, the debug flag, and the public
 * URL to which a browser on another host is sent with the same path (docs/rules.md §API). An unreachable
 * server does not block the app; the page says so. The answer is checked against its schema after
 * the first render has started (`checkConfig`), not before it, so that zod is not part of the first load.
 */
export async function boot(fetchImpl: typeof fetch = fetch): Promise<TPublicConfig | null> {
  let config: TPublicConfig;
  try {
    const response = await fetchImpl('/api/config/', { headers: { Accept: 'application/json' } });
    if (response.status === 503) {
      useShellStore.getState().setMaintenance(true);
      return null;
    }
    config = (await response.json()) as TPublicConfig;
    if (config.publicUrl) {
      const target = new URL(config.publicUrl);
      if (target.host !== window.location.host) {
        const { pathname, search, hash } = window.location;
        window.location.replace(`${target.origin}${pathname}${search}${hash}`);
      }
    }
  } catch {
    unavailable();
    return null;
  }
  useShellStore.getState().setMaintenance(config.maintenance);
  setDebug(config.debug);
  setUploadLimit(config.maxUploadMb, config.maxUploadsInFlight);
  // Unsaved diagrams older than 15 days go, unless in maintenance (docs/rules.md §Web).
  purgeStalePipelineStates({ maintenance: useShellStore.getState().maintenance });
  return config;
}
