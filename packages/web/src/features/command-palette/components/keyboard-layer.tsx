import { Kbd, Modal, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@stageline/shared';
import { currentCommands } from '../../../shared/lib/commands';
import { useRouteContext } from '../route-context';

/** A key pressed while typing belongs to the field, never to a shortcut. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.getAttribute('role') === 'textbox';
}

/**
 * Moves the focus to the next or previous element marked `data-nav-item` (rows of lists, cells of
 * the matrix) and scrolls it into view; Enter then opens it as a click would.
 */
export function moveFocus(step: 1 | -1): void {
  const items = [...document.querySelectorAll<HTMLElement>('main [data-nav-item]')].filter(
    (item) => item.offsetParent !== null,
  );
  if (items.length === 0) return;
  const at = items.findIndex((item) => item === document.activeElement || item.contains(document.activeElement));
  const next =
    items[at === -1 ? (step === 1 ? 0 : items.length - 1) : Math.min(items.length - 1, Math.max(0, at + step))]!;
  next.focus();
  next.scrollIntoView({ block: 'nearest' });
}

/**
 * One-key shortcuts of the signed-in area (issue 20; listed by `?` and in the user guide): `g` then
 * `h`/`w`/`p`/`u`/`n` to go to My work, workspaces, the project's pipelines or units, notifications;
 * `j`/`k` (and ↓/↑) through lists; the open screen's own commands by their key (`a` accept, `r`
 * reject, `c` comment). Never while typing in a field, and never with Ctrl, ⌘ or Alt held.
 */
export function KeyboardLayer() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const context = useRouteContext();
  const [helpOpened, help] = useDisclosure(false);
  const pendingG = useRef<number | null>(null);
  const contextRef = useRef(context);
  useEffect(() => {
    contextRef.current = context;
  });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      const key = event.key;
      const since = pendingG.current;
      pendingG.current = null;
      if (since !== null && Date.now() - since < 1500) {
        const { projectId } = contextRef.current;
        const target =
          key === 'h'
            ? paths.app.dashboard()
            : key === 'w'
              ? paths.app.workspaces()
              : key === 'n'
                ? paths.app.notifications()
                : key === 'p' && projectId !== undefined
                  ? paths.app.pipelines(projectId)
                  : key === 'u' && projectId !== undefined
                    ? paths.app.units(projectId)
                    : null;
        if (target) {
          event.preventDefault();
          void navigate(target);
        }
        return;
      }
      if (key === 'g') {
        pendingG.current = Date.now();
        return;
      }
      if (key === '?') {
        event.preventDefault();
        help.open();
        return;
      }
      if (key === 'j' || key === 'ArrowDown' || key === 'k' || key === 'ArrowUp') {
        if (key.startsWith('Arrow') && !(document.activeElement as HTMLElement | null)?.hasAttribute('data-nav-item'))
          return;
        event.preventDefault();
        moveFocus(key === 'j' || key === 'ArrowDown' ? 1 : -1);
        return;
      }
      const command = currentCommands().find((candidate) => candidate.shortcut === key);
      if (command) {
        event.preventDefault();
        command.run();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate, help]);

  const rows: [string[], string][] = [
    [['Ctrl', 'K'], t('Search, jump anywhere, run a command')],
    [['?'], t('These shortcuts')],
    [['g', 'h'], t('Go to My work')],
    [['g', 'w'], t('Go to workspaces')],
    [['g', 'p'], t('Go to the project’s pipelines')],
    [['g', 'u'], t('Go to the project’s units')],
    [['g', 'n'], t('Go to notifications')],
    [['j', 'k'], t('Next and previous item of a list')],
    [['Enter'], t('Open the focused item')],
    [['a'], t('Accept the open task')],
    [['r'], t('Reject the open task')],
    [['c'], t('Write a comment')],
    [['Tab', '← → ↑ ↓'], t('Diagram editor: go to a stage (the nearest one that way)')],
    [['n'], t('Diagram editor: add a stage after the focused one')],
    [['c', 'd'], t('Diagram editor: connect, disconnect the focused stage')],
    [['Shift', '← → ↑ ↓'], t('Diagram editor: move the focused stage')],
    [['Delete'], t('Diagram editor: delete the focused stage')],
    [['Enter'], t('Diagram editor: the focused stage’s settings')],
    [['Ctrl', 'S'], t('Diagram editor: save')],
  ];

  return (
    <Modal
      opened={helpOpened}
      onClose={help.close}
      title={t('Keyboard shortcuts')}
      size="lg"
      data-testid="shortcuts-help"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('Shortcuts work anywhere in the app except while you type in a field.')}
        </Text>
        <Table>
          <Table.Tbody>
            {rows.map(([keys, label]) => (
              <Table.Tr key={label}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {keys.map((part, index) => (
                    <span key={part}>
                      {index > 0 ? ' ' : null}
                      <Kbd>{part}</Kbd>
                    </span>
                  ))}
                </Table.Td>
                <Table.Td>{label}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Modal>
  );
}
