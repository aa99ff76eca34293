import { ActionIcon, Badge, Button, Group, Paper, SegmentedControl, Tooltip } from '@mantine/core';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconDeviceFloppy,
  IconEdit,
  IconHierarchy,
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

/** The flow editor's toolbar: add, undo and redo, organize, orientation, full screen, edit, revert, save. */
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
  return (
    <Paper withBorder p={6} shadow="xs">
      <Group gap={6} wrap="wrap">
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
        <Button
          size="compact-sm"
          leftSection={<IconPlus size={14} />}
          onClick={props.onAddStage}
          data-testid="flow-add-stage"
        >
          {t('Add stage')}
        </Button>
        <ToolButton label={t('Undo')} testId="flow-undo" disabled={!props.canUndo} onClick={props.onUndo}>
          <IconArrowBackUp size={16} />
        </ToolButton>
        <ToolButton label={t('Redo')} testId="flow-redo" disabled={!props.canRedo} onClick={props.onRedo}>
          <IconArrowForwardUp size={16} />
        </ToolButton>
        <ToolButton label={t('Organize')} testId="flow-organize" loading={props.organizing} onClick={props.onOrganize}>
          <IconHierarchy size={16} />
        </ToolButton>
        <SegmentedControl
          size="xs"
          value={props.layout}
          onChange={props.onLayout}
          data={[
            { value: 'horizontal', label: t('Horizontal') },
            { value: 'vertical', label: t('Vertical') },
          ]}
          data-testid="flow-orientation"
          data-value={props.layout}
        />
        <ToolButton
          label={props.fullscreen ? t('Exit full screen') : t('Full screen')}
          testId="flow-fullscreen"
          onClick={props.onToggleFullscreen}
        >
          {props.fullscreen ? <IconMinimize size={16} /> : <IconMaximize size={16} />}
        </ToolButton>
        <Button
          size="compact-sm"
          variant="default"
          leftSection={<IconEdit size={14} />}
          disabled={props.selectedCount === 0}
          onClick={props.onEditSelected}
          data-testid="flow-edit-stages"
        >
          {t('Edit stages ({{count}})', { count: props.selectedCount })}
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          leftSection={<IconRestore size={14} />}
          disabled={!props.dirty}
          onClick={props.onRevert}
          data-testid="flow-revert"
        >
          {t('Revert to last save')}
        </Button>
        <Button
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
  ...props
}: {
  label: string;
  testId: string;
  children: ReactNode;
  disabled?: boolean;
  loading?: boolean;
  onClick: () => void;
}) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="default" size="md" aria-label={label} data-testid={testId} {...props}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
