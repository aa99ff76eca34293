import { useEffect, useState, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { loadOnce } from '../../../shared/lib/load-once';
import { whenIdle } from '../../../shared/lib/when-idle';
import { showToast } from '../../../shared/ui/toast';
import type { StageSettingsDrawer } from './stage-settings-form';

type TDrawer = typeof StageSettingsDrawer;

/** The drawer's module (its form, the date picker, the review rules), fetched once for every screen. */
const drawer = loadOnce<TDrawer>(async () => (await import('./stage-settings-form')).StageSettingsDrawer);

/**
 * The stage settings drawer, not part of the first load of the screens that offer it (the diagram
 * editor, the pipeline's view, the quickstart; docs/decisions.md, entry 133): its module is fetched
 * when the browser is idle after the first render, or at once when settings are opened before
 * that, and the drawer opens when it arrives. A fetch that fails while settings are asked for says
 * so and closes them, so the next ask tries again.
 */
export function StageSettingsDrawerOnDemand(props: ComponentProps<TDrawer>) {
  const { t } = useTranslation();
  const [Drawer, setDrawer] = useState<TDrawer | null>(() => drawer.loaded());
  const asked = props.stages !== null;
  const { onClose } = props;

  useEffect(() => {
    if (Drawer) return;
    const fetchDrawer = () =>
      drawer.load().then((arrived) => {
        setDrawer(() => arrived);
      });
    if (!asked) return whenIdle(() => void fetchDrawer().catch(() => undefined));
    let current = true;
    fetchDrawer().catch(() => {
      if (!current) return;
      showToast({ kind: 'error', message: t('Error while loading data') });
      onClose();
    });
    return () => {
      current = false;
    };
  }, [Drawer, asked, onClose, t]);

  return Drawer ? <Drawer {...props} /> : null;
}
