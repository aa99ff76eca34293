import { Anchor, Button, Center, Group, SegmentedControl, Select, Stack, Switch, Text } from '@mantine/core';
import { IconFileTypePdf, IconDownload } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { TAttachmentPreview } from '@stageline/shared';

/** A file as the player needs it: the team's files and a client's have these in common. */
export type TPlayable = { id: number; name: string; preview: TAttachmentPreview | null; content_url: string };

/** Frames per second the frame step assumes (docs/review-sessions.md: constant-rate renders at 24). */
export const FrameRate = 24;
const speeds = ['0.25', '0.5', '1', '1.5', '2'];

/**
 * The current item's files, one at a time (keyed by item, so each item starts at its first file) (docs/review-sessions.md): an image shown whole, a video
 * with its controls (loop and speed beside), a PDF opened in the browser's viewer in a new tab, and
 * anything else as a download, as the files panel shows them (docs/files.md).
 */
export function ReviewPlayer({
  files,
  videoRef,
  imageRef,
  overlay,
  index: shown,
  onIndex,
}: {
  files: TPlayable[];
  videoRef: RefObject<HTMLVideoElement | null>;
  imageRef?: RefObject<HTMLImageElement | null>;
  /** Drawn over the image or video, in its box (the drawing layer). */
  overlay?: ReactNode;
  /** The file shown, when the caller keeps it (to draw on it); else the player does. */
  index?: number;
  onIndex?: (index: number) => void;
}) {
  const { t } = useTranslation();
  const [own, setOwn] = useState(0);
  const index = shown ?? own;
  const setIndex = onIndex ?? setOwn;
  const [loop, setLoop] = useState(true);
  const [speed, setSpeed] = useState('1');
  useEffect(() => {
    if (videoRef.current) videoRef.current.playbackRate = Number(speed);
  });
  const file = files[Math.min(index, files.length - 1)];
  if (!file)
    return (
      <Center mih={200} data-testid="review-player-empty">
        <Text c="dimmed">{t('No files in this round yet.')}</Text>
      </Center>
    );
  return (
    <Stack gap="xs" data-testid="review-player">
      {files.length > 1 ? (
        <SegmentedControl
          size="xs"
          value={String(file.id)}
          onChange={(value) => setIndex(files.findIndex((f) => String(f.id) === value))}
          data={files.map((f) => ({ value: String(f.id), label: f.name }))}
        />
      ) : null}
      <Center
        style={{ background: 'var(--mantine-color-dark-8)', borderRadius: 8, minHeight: 240, overflow: 'hidden' }}
      >
        {file.preview === 'image' ? (
          <div style={{ position: 'relative', display: 'inline-block', lineHeight: 0 }}>
            <img
              ref={imageRef}
              src={file.content_url}
              alt={file.name}
              style={{ maxWidth: '100%', maxHeight: '60vh', display: 'block' }}
              data-testid="review-image"
            />
            {overlay}
          </div>
        ) : file.preview === 'video' ? (
          <div style={{ position: 'relative', display: 'inline-block', lineHeight: 0 }}>
            <video
              ref={videoRef}
              key={file.id}
              src={file.content_url}
              controls
              loop={loop}
              preload="auto"
              style={{ maxWidth: '100%', maxHeight: '60vh', display: 'block' }}
              data-testid="review-video"
            />
            {overlay}
          </div>
        ) : (
          <Stack align="center" p="xl" gap="xs">
            {file.preview === 'pdf' ? <IconFileTypePdf size={48} /> : <IconDownload size={48} />}
            <Text c="gray.3">{file.name}</Text>
            <Button component="a" href={file.content_url} target="_blank" rel="noopener" variant="light">
              {file.preview === 'pdf' ? t('Open the PDF') : t('Download')}
            </Button>
          </Stack>
        )}
      </Center>
      <Group justify="space-between" gap="xs">
        <Anchor href={file.content_url} target="_blank" rel="noopener" size="sm" truncate maw={280}>
          {file.name}
        </Anchor>
        {file.preview === 'video' ? (
          <Group gap="xs">
            <Switch size="xs" label={t('Loop')} checked={loop} onChange={(e) => setLoop(e.currentTarget.checked)} />
            <Select
              size="xs"
              w={90}
              aria-label={t('Speed')}
              data={speeds.map((s) => ({ value: s, label: `${s}×` }))}
              value={speed}
              onChange={(value) => setSpeed(value ?? '1')}
              allowDeselect={false}
            />
          </Group>
        ) : null}
      </Group>
    </Stack>
  );
}

/**
 * The next item's files, loaded ahead out of sight so moving to it shows at once (docs/review-sessions.md):
 * images fetched whole, videos as far as the browser preloads them.
 */
export function Preload({ files }: { files: TPlayable[] }) {
  return (
    <div style={{ display: 'none' }} aria-hidden data-testid="review-preload">
      {files.map((f) =>
        f.preview === 'image' ? (
          <img key={f.id} src={f.content_url} alt="" />
        ) : f.preview === 'video' ? (
          <video key={f.id} src={f.content_url} preload="auto" muted />
        ) : null,
      )}
    </div>
  );
}

/** Is the key event typed into a field (where ←, →, Space and `,` `.` belong to the text)? */
function typing(event: KeyboardEvent): boolean {
  const target = event.target;
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.closest('[role="dialog"]') !== null
  );
}

/**
 * The session's keys: ←/→ between items, Space plays or pauses, `,` and `.` step one frame back
 * and forward (pausing first). Not while typing or in a dialog.
 */
export function usePlayerKeys(
  videoRef: RefObject<HTMLVideoElement | null>,
  { previous, next }: { previous: () => void; next: () => void },
) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || typing(event)) return;
      const video = videoRef.current;
      switch (event.key) {
        case 'ArrowLeft':
          previous();
          break;
        case 'ArrowRight':
          next();
          break;
        case ' ':
          if (!video) return;
          if (video.paused) void video.play().catch(() => undefined);
          else video.pause();
          break;
        case ',':
        case '.':
          if (!video) return;
          video.pause();
          video.currentTime = Math.max(0, video.currentTime + (event.key === '.' ? 1 : -1) / FrameRate);
          break;
        default:
          return;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [videoRef, previous, next]);
}
