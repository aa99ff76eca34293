import { Menu } from '@mantine/core';
import { IconSettings, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Where the menu opened: the pointer's place on the page and the stage under it. */
export type TContextMenuAt = { x: number; y: number; nodeId: string };

/**
 * A stage's context menu in the editor (right click, or a long press on touch screens): its
 * settings and deleting it (decision 201). It opens at the pointer, on a one-pixel anchor there.
 */
export function StageContextMenu({
  at,
  onClose,
  onSettings,
  onDelete,
}: {
  at: TContextMenuAt | null;
  onClose: () => void;
  onSettings: (nodeId: string) => void;
  onDelete: (nodeId: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu
      opened={at !== null}
      onChange={(opened) => {
        if (!opened) onClose();
      }}
      position="bottom-start"
      offset={2}
      shadow="md"
    >
      <Menu.Target>
        <div
          aria-hidden
          style={{ position: 'fixed', left: at?.x ?? 0, top: at?.y ?? 0, width: 1, height: 1, pointerEvents: 'none' }}
        />
      </Menu.Target>
      <Menu.Dropdown data-testid="flow-context-menu">
        <Menu.Item
          leftSection={<IconSettings size={14} />}
          onClick={() => at && onSettings(at.nodeId)}
          data-testid="flow-context-settings"
        >
          {t('Settings')}
        </Menu.Item>
        <Menu.Item
          color="red"
          leftSection={<IconTrash size={14} />}
          onClick={() => at && onDelete(at.nodeId)}
          data-testid="flow-context-delete"
        >
          {t('Delete stage')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
