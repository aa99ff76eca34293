import { ActionIcon, Badge, Button, Group, Menu, Paper, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconCheck,
  IconDeviceFloppy,
  IconDots,
  IconEdit,
  IconHierarchy,
  IconLayoutColumns,
  IconLayoutRows,
  IconMaximize,
  IconMinimize,
  IconPlus,
  IconRestore,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TLayout } from '@stageline/shared';
import classes from './flow.module.css';

/** What the palette item carries when dragged onto the canvas. */
export const DragType = 'application/x-stageline-stage';

/**
 * The flow editor's toolbar, one row at every width in both languages (decision 202): add, undo
 * and redo, organize, the orientation (a menu), full screen, and "More" (edit the selected stages,
 * revert), with Save at the end. On a phone the add button is its icon, the drag item (a mouse's
 * way) goes, and Organize and full screen move into "More".
 */
export function FlowToolbar(props: {
  layout: TLayout;
  canUndo: boolean;
  canRedo: boolean;
  organizing: boolean;
  fullscreen: boolean;
  selectedCount: number;
  dirty: boolean;
  saving: boolean;
  onAddStage: () => void;
  onUndo: () => void;
  onRedo: () => void;
  onOrganize: () => void;
  onLayout: (layout: TLayout) => void;
  onToggleFullscreen: () => void;
  onEditSelected: () => void;
  onRevert: () => void;
  onSave: () => void;
}) {
  const { t } = useTranslation();
  const roomy = useMediaQuery('(min-width: 576px)', true);
  const fullscreenLabel = props.fullscreen ? t('Exit full screen') : t('Full screen');
  const fullscreenIcon = props.fullscreen ? <IconMinimize size={16} /> : <IconMaximize size={16} />;
  return (
    <Paper withBorder p={6} shadow="xs" data-testid="flow-toolbar">
      <Group gap={6} wrap="nowrap">
        {roomy ? (
          <Tooltip label={t('Drag onto the canvas to add a stage')}>
            <Badge
              size="lg"
              variant="outline"
              className={classes.palette}
              draggable
              onDragStart={(event) => {
                event.dataTransfer.setData(DragType, 'stage');
                event.dataTransfer.effectAllowed = 'copy';
              }}
              data-testid="flow-palette-stage"
            >
              {t('Stage')}
            </Badge>
          </Tooltip>
        ) : null}
        {roomy ? (
          <Button
            size="compact-sm"
            leftSection={<IconPlus size={14} />}
            onClick={props.onAddStage}
            data-testid="flow-add-stage"
          >
            {t('Add stage')}
          </Button>
        ) : (
          <ToolButton label={t('Add stage')} testId="flow-add-stage" variant="filled" onClick={props.onAddStage}>
            <IconPlus size={16} />
          </ToolButton>
        )}
        <ToolButton label={t('Undo')} testId="flow-undo" disabled={!props.canUndo} onClick={props.onUndo}>
          <IconArrowBackUp size={16} />
        </ToolButton>
        <ToolButton label={t('Redo')} testId="flow-redo" disabled={!props.canRedo} onClick={props.onRedo}>
          <IconArrowForwardUp size={16} />
        </ToolButton>
        {roomy ? (
          <ToolButton
            label={t('Organize')}
            testId="flow-organize"
            loading={props.organizing}
            onClick={props.onOrganize}
          >
            <IconHierarchy size={16} />
          </ToolButton>
        ) : null}
        <Menu position="bottom-start" shadow="md">
          <Menu.Target>
            <Tooltip label={t('Orientation')}>
              <ActionIcon
                variant="default"
                size="md"
                aria-label={t('Orientation')}
                data-testid="flow-orientation"
                data-value={props.layout}
              >
                {props.layout === 'horizontal' ? <IconLayoutColumns size={16} /> : <IconLayoutRows size={16} />}
              </ActionIcon>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            {(['horizontal', 'vertical'] as const).map((value) => (
              <Menu.Item
                key={value}
                leftSection={value === 'horizontal' ? <IconLayoutColumns size={14} /> : <IconLayoutRows size={14} />}
                rightSection={props.layout === value ? <IconCheck size={14} /> : null}
                onClick={() => props.onLayout(value)}
                data-testid={`flow-orientation-${value}`}
              >
                {value === 'horizontal' ? t('Horizontal') : t('Vertical')}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
        {roomy ? (
          <ToolButton label={fullscreenLabel} testId="flow-fullscreen" onClick={props.onToggleFullscreen}>
            {fullscreenIcon}
          </ToolButton>
        ) : null}
        <Menu position="bottom-end" shadow="md">
          <Menu.Target>
            <Tooltip label={t('More')}>
              <ActionIcon variant="default" size="md" aria-label={t('More')} data-testid="flow-more">
                <IconDots size={16} />
              </ActionIcon>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            {roomy ? null : (
              <>
                <Menu.Item
                  leftSection={<IconHierarchy size={14} />}
                  onClick={props.onOrganize}
                  data-testid="flow-organize"
                >
                  {t('Organize')}
                </Menu.Item>
                <Menu.Item
                  leftSection={fullscreenIcon}
                  onClick={props.onToggleFullscreen}
                  data-testid="flow-fullscreen"
                >
                  {fullscreenLabel}
                </Menu.Item>
              </>
            )}
            <Menu.Item
              leftSection={<IconEdit size={14} />}
              disabled={props.selectedCount === 0}
              onClick={props.onEditSelected}
              data-testid="flow-edit-stages"
            >
              {t('Edit stages ({{count}})', { count: props.selectedCount })}
            </Menu.Item>
            <Menu.Item
              leftSection={<IconRestore size={14} />}
              disabled={!props.dirty}
              onClick={props.onRevert}
              data-testid="flow-revert"
            >
              {t('Revert to last save')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
        <Button
          ml="auto"
          size="compact-sm"
          leftSection={<IconDeviceFloppy size={14} />}
          loading={props.saving}
          disabled={!props.dirty}
          onClick={props.onSave}
          data-testid="flow-save"
        >
          {t('Save')}
        </Button>
      </Group>
    </Paper>
  );
}

function ToolButton({
  label,
  testId,
  children,
  variant = 'default',
  ...props
}: {
  label: string;
  testId: string;
  children: ReactNode;
  disabled?: boolean;
  loading?: boolean;
  variant?: 'default' | 'filled';
  onClick: () => void;
}) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant={variant} size="md" aria-label={label} data-testid={testId} {...props}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
