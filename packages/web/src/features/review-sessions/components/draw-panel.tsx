import { ActionIcon, Badge, Button, ColorSwatch, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowBackUp, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DrawingTools, type TDrawing, type TDrawingShape, type TDrawingTool } from '@stageline/shared/review-sessions';
import { showToast } from '../../../shared/ui/toast';
import { shownByTransport } from '../../../shared/api';
import { sendDrawing } from '../api';
import { drawingPng } from '../lib/shapes';

export const DrawColors = ['#ff3b30', '#ffcc00', '#34c759', '#0a84ff', '#ffffff'] as const;

/** The drawing being made and the one being looked at: what the layer over the file shows. */
export type TDrawState = {
  tool: TDrawingTool | null;
  color: string;
  text: string;
  shapes: TDrawingShape[];
  viewing: TDrawing | null;
};
export const noDrawing: TDrawState = { tool: null, color: DrawColors[0], text: '', shapes: [], viewing: null };

/**
 * Drawing on the current file (docs/review-sessions.md): tools, colour, undo, and a comment sent
 * with the shapes (at the paused video's time) and their PNG; the file's saved drawings to look at.
 */
export function DrawPanel({
  task,
  file,
  media,
  state,
  onChange,
  saved,
}: {
  task: number;
  file: { id: number; preview: string | null };
  media: () => HTMLImageElement | HTMLVideoElement | null;
  state: TDrawState;
  onChange: (state: TDrawState) => void;
  saved: TDrawing[];
}) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<TDrawState>) => onChange({ ...state, ...patch });
  const onFile = saved.filter((d) => d.file === file.id);
  const toolLabels: Record<TDrawingTool, string> = {
    pen: t('Pen'),
    arrow: t('Arrow'),
    rect: t('Rectangle'),
    ellipse: t('Ellipse'),
    text: t('Text'),
  };

  const send = async () => {
    const element = media();
    const time = element instanceof HTMLVideoElement ? element.currentTime : null;
    setBusy(true);
    try {
      const png = element ? await drawingPng(element, state.shapes).catch(() => null) : null;
      await sendDrawing({
        task,
        text: note.trim() || t('A drawing'),
        drawing: { file: file.id, time, shapes: state.shapes },
        png,
      });
      setNote('');
      onChange({ ...noDrawing, color: state.color });
      showToast({ kind: 'success', message: t('Drawing sent') });
    } catch (error) {
      if (!shownByTransport(error))
        showToast({ kind: 'error', message: error instanceof Error ? error.message : t('Unknown error') });
    } finally {
      setBusy(false);
    }
  };

  if (file.preview !== 'image' && file.preview !== 'video') return null;
  return (
    <Stack gap="xs" data-testid="draw-panel">
      <Group gap="xs" wrap="wrap">
        <Button
          size="xs"
          variant={state.tool ? 'filled' : 'default'}
          leftSection={<IconPencil size={14} />}
          onClick={() => {
            const element = media();
            if (element instanceof HTMLVideoElement) element.pause();
            set({ tool: state.tool ? null : 'pen', viewing: null });
          }}
          data-testid="draw-toggle"
        >
          {state.tool ? t('Stop drawing') : t('Draw')}
        </Button>
        {state.tool ? (
          <>
            <SegmentedControl
              size="xs"
              value={state.tool}
              onChange={(value) => set({ tool: value })}
              data={DrawingTools.map((tool) => ({ value: tool, label: toolLabels[tool] }))}
              data-testid="draw-tool"
            />
            <Group gap={4}>
              {DrawColors.map((color) => (
                <ColorSwatch
                  key={color}
                  component="button"
                  color={color}
                  size={20}
                  onClick={() => set({ color })}
                  aria-label={color}
                  aria-pressed={state.color === color}
                  style={{ outline: state.color === color ? '2px solid var(--mantine-color-blue-6)' : undefined }}
                />
              ))}
            </Group>
            <ActionIcon
              variant="default"
              disabled={state.shapes.length === 0}
              onClick={() => set({ shapes: state.shapes.slice(0, -1) })}
              aria-label={t('Undo')}
              data-testid="draw-undo"
            >
              <IconArrowBackUp size={16} />
            </ActionIcon>
          </>
        ) : null}
      </Group>
      {state.tool === 'text' ? (
        <TextInput
          size="xs"
          maw={280}
          placeholder={t('Type, then click on the frame')}
          value={state.text}
          onChange={(e) => set({ text: e.currentTarget.value })}
        />
      ) : null}
      {state.tool ? (
        <Group gap="xs" align="flex-end">
          <TextInput
            size="xs"
            style={{ flex: 1 }}
            label={t('Comment with the drawing')}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            data-testid="draw-note"
          />
          <Button
            size="xs"
            disabled={state.shapes.length === 0}
            loading={busy}
            onClick={() => void send()}
            data-testid="draw-send"
          >
            {t('Send the drawing')}
          </Button>
        </Group>
      ) : null}
      {onFile.length > 0 ? (
        <Group gap={4} data-testid="drawings-saved">
          <Text size="xs" c="dimmed">
            {t('Drawings')}:
          </Text>
          {onFile.map((d) => (
            <Badge
              key={d.id}
              component="button"
              variant={state.viewing?.id === d.id ? 'filled' : 'light'}
              style={{ cursor: 'pointer' }}
              onClick={() => {
                const element = media();
                if (element instanceof HTMLVideoElement && d.time !== null) {
                  element.pause();
                  element.currentTime = d.time;
                }
                set({ tool: null, viewing: state.viewing?.id === d.id ? null : d });
              }}
              data-testid="drawing-saved"
            >
              {d.author?.name ?? ''}
              {d.frame !== null ? ` · ${t('frame {{frame}}', { frame: d.frame })}` : ''}
            </Badge>
          ))}
        </Group>
      ) : null}
    </Stack>
  );
}
