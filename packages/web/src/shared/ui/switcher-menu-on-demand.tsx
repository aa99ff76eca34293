import { cloneElement, useEffect, useState, type MouseEvent } from 'react';
import { loadOnce } from '../lib/load-once';
import { whenIdle } from '../lib/when-idle';
import type SwitcherMenu from './switcher-menu';
import type { TSwitcherMenuProps } from './switcher-menu';

type TMenu = typeof SwitcherMenu;

/** The menu's module, fetched once for every switcher; a failed fetch may be tried again. */
const menu = loadOnce<TMenu>(async () => (await import('./switcher-menu')).default);

/**
 * A header switcher whose menu (Mantine's Menu with Floating UI, about 25 KB) is not part of the
 * first load (docs/decisions.md, entry 118): until it arrives the button is drawn alone, the same
 * element with the same label. The module is fetched when the browser is idle after the first
 * render, or at once when the pointer rests on the button or it takes the focus; a press before it
 * arrives opens the menu when it does, and a focused button keeps the focus.
 */
export function SwitcherMenuOnDemand({
  target,
  label,
  choices,
}: Omit<TSwitcherMenuProps, 'focusAtOnce' | 'openAtOnce'>) {
  const [Menu, setMenu] = useState<TMenu | null>(() => menu.loaded());
  const [focused, setFocused] = useState(false);
  const [pressed, setPressed] = useState(false);

  const arrive = () => {
    void menu
      .load()
      .then((arrived) => setMenu(() => arrived))
      .catch(() => undefined);
  };

  useEffect(() => {
    if (menu.loaded()) return;
    return whenIdle(arrive);
  }, []);

  if (Menu) {
    return <Menu target={target} label={label} choices={choices} focusAtOnce={focused} openAtOnce={pressed} />;
  }
  return cloneElement(target, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: arrive,
    onFocus: () => {
      setFocused(true);
      arrive();
    },
    onBlur: () => setFocused(false),
    onClick: (event: MouseEvent) => {
      event.preventDefault();
      setPressed(true);
      arrive();
    },
  } as Record<string, unknown>);
}
