import { cloneElement, useEffect, useState, type Dispatch, type MouseEvent, type SetStateAction } from 'react';
import { loadOnce } from '../lib/load-once';
import { whenIdle } from '../lib/when-idle';
import type SwitcherMenu from './switcher-menu';
import type { TSwitcherMenuProps } from './switcher-menu';

type TMenu = typeof SwitcherMenu;
type TSetMenu = Dispatch<SetStateAction<TMenu | null>>;

/** The menu's module, fetched once for every switcher; a failed fetch may be tried again. */
const menu = loadOnce<TMenu>(async () => (await import('./switcher-menu')).default);

/**
 * A pointer is pressed on a switcher's placeholder: a menu that arrives meanwhile waits for the
 * release, since the menu draws its own button and a click whose button was drawn anew between the
 * press and the release is lost.
 */
let pressing = false;
const waiting = new Set<TSetMenu>();

/** Puts the menu in place of a placeholder once it has arrived, after the press if one is under way. */
function putInPlace(setMenu: TSetMenu) {
  const arrived = menu.loaded();
  if (!arrived) return;
  if (pressing) waiting.add(setMenu);
  else setMenu(() => arrived);
}

/** Fetches the menu's module (once for every switcher) and puts it in place when it arrives. */
function fetchMenu(setMenu: TSetMenu) {
  void menu
    .load()
    .then(() => putInPlace(setMenu))
    .catch(() => undefined);
}

/** Marks a press until the pointer is released and its click, if any, handled. */
function holdDuringPress() {
  pressing = true;
  const released = () => {
    window.removeEventListener('pointerup', released, true);
    window.removeEventListener('pointercancel', released, true);
    setTimeout(() => {
      pressing = false;
      for (const setMenu of waiting) putInPlace(setMenu);
      waiting.clear();
    });
  };
  window.addEventListener('pointerup', released, true);
  window.addEventListener('pointercancel', released, true);
}

/**
 * A header switcher whose menu (Mantine's Menu with Floating UI, about 25 KB) is not part of the
 * first load (docs/decisions.md, entry 118): until it arrives the button is drawn alone, the same
 * element with the same label. The module is fetched when the browser is idle after the first
 * render, or at once when the pointer rests on the button or it takes the focus; a press before it
 * arrives opens the menu when it does (not before the press's release), and a focused button keeps
 * the focus.
 */
export function SwitcherMenuOnDemand({
  target,
  label,
  choices,
}: Omit<TSwitcherMenuProps, 'focusAtOnce' | 'openAtOnce'>) {
  const [Menu, setMenu] = useState<TMenu | null>(() => menu.loaded());
  const [focused, setFocused] = useState(false);
  const [pressed, setPressed] = useState(false);

  const arrive = () => fetchMenu(setMenu);

  useEffect(() => {
    if (menu.loaded()) return;
    return whenIdle(() => fetchMenu(setMenu));
  }, []);

  if (Menu) {
    return <Menu target={target} label={label} choices={choices} focusAtOnce={focused} openAtOnce={pressed} />;
  }
  return cloneElement(target, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: arrive,
    onPointerDown: () => {
      holdDuringPress();
      arrive();
    },
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
