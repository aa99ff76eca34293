import { Menu } from '@mantine/core';
import { cloneElement, useEffect, useRef, useState, type ReactElement, type ReactNode, type Ref } from 'react';

/** One choice of a header switcher (a language, a colour scheme). */
export type TSwitcherChoice = {
  key: string;
  label: string;
  /** The current choice, drawn in bold. */
  current: boolean;
  testId: string;
  leftSection?: ReactNode;
  /** Extra attributes of the item (`lang`, `data-active`). */
  attributes?: Record<string, string | boolean | undefined>;
  onSelect: () => void;
};

export type TSwitcherMenuProps = {
  /** The button that opens the menu; the same element is drawn while this module loads. */
  target: ReactElement<{ ref?: Ref<HTMLElement> }>;
  label: string;
  choices: TSwitcherChoice[];
  /** The button had the focus while this module loaded: it keeps it. */
  focusAtOnce?: boolean;
  /** The button was pressed while this module loaded: the menu opens as it would have. */
  openAtOnce?: boolean;
};

/**
 * The dropdown of the header's switchers: Mantine's Menu, whose floating layer (Floating UI, the
 * focus trap, transitions) is loaded after the first render (`switcher-menu-on-demand.tsx`,
 * docs/decisions.md, entry 118).
 */
export default function SwitcherMenu({ target, label, choices, focusAtOnce, openAtOnce }: TSwitcherMenuProps) {
  const [opened, setOpened] = useState(false);
  const targetRef = useRef<HTMLElement>(null);
  useEffect(() => {
    // Focused first, so the menu gives the focus back to the button when it closes.
    if (focusAtOnce || openAtOnce) targetRef.current?.focus();
    if (!openAtOnce) return;
    const timer = setTimeout(() => setOpened(true));
    return () => clearTimeout(timer);
    // Once, when the module has arrived.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <Menu position="bottom-end" withinPortal opened={opened} onChange={setOpened}>
      <Menu.Target>{cloneElement(target, { ref: targetRef })}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{label}</Menu.Label>
        {choices.map((choice) => (
          <Menu.Item
            key={choice.key}
            leftSection={choice.leftSection}
            fw={choice.current ? 700 : undefined}
            data-testid={choice.testId}
            onClick={choice.onSelect}
            {...choice.attributes}
          >
            {choice.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
