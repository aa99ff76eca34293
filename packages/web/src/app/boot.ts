import { ZPublicConfig, type TPublicConfig } from '@stageline/shared';
import { setUploadLimit } from '../features/attachments';
import { purgeStalePipelineStates } from '../features/pipelines';
import { setDebug } from '../shared/api';
import { i18n } from '../shared/i18n';
import { useShellStore } from '../shared/lib/shell-store';

/**
 * Reads `/api/config/` before the first render: maintenance mode, the debug flag, and the public
 * URL to which a browser on another host is sent with the same path (docs/rules.md §API). An unreachable
 * server does not block the app; the page says so.
 */
export async function boot(fetchImpl: typeof fetch = fetch): Promise<TPublicConfig | null> {
  let config: TPublicConfig;
  try {
    const response = await fetchImpl('/api/config/', { headers: { Accept: 'application/json' } });
    if (response.status === 503) {
      useShellStore.getState().setMaintenance(true);
      return null;
    }
    config = ZPublicConfig.parse(await response.json());
  } catch {
    useShellStore.getState().setPageError(i18n.t('Server Unavailable. Check your Internet connection or try later.'));
    return null;
  }
  if (config.publicUrl) {
    const target = new URL(config.publicUrl);
    if (target.host !== window.location.host) {
      const { pathname, search, hash } = window.location;
      window.location.replace(`${target.origin}${pathname}${search}${hash}`);
    }
  }
  useShellStore.getState().setMaintenance(config.maintenance);
  setDebug(config.debug);
  setUploadLimit(config.maxUploadMb);
  // Unsaved diagrams older than 15 days go, unless in maintenance (docs/rules.md §Web).
  purgeStalePipelineStates({ maintenance: useShellStore.getState().maintenance });
  return config;
}
