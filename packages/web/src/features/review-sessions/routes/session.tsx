import { Button, Grid, Group, Kbd, Modal, Stack, Text } from '@mantine/core';
import { IconShare } from '@tabler/icons-react';
import { useCallback, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { type TReviewSession } from '@stageline/shared/review-sessions';
import { RecordView, useRecord } from '../../../shared/records';
import { PageCard } from '../../../shared/ui/page-card';
import { CommentsPanel } from '../../comments';
import { ClientFeedbackList } from '../../tasks';
import { sessionQueryOptions, removeItem, updateSession, useDrawings } from '../api';
import { DecisionBar } from '../components/decision-bar';
import { DrawPanel, noDrawing, type TDrawState } from '../components/draw-panel';
import { DrawingLayer } from '../components/drawing-layer';
import { ItemList } from '../components/item-list';
import { Preload, ReviewPlayer, usePlayerKeys } from '../components/review-player';
import { SharePanel } from '../components/share-panel';

/**
 * `/app/reviews/{sessionId}` (docs/review-sessions.md): the session's items beside the current
 * one's latest round of files; ←/→ move between items, Space plays, `,` `.` step frames; accept,
 * reject and comment without leaving; the next item's files load ahead.
 */
export default function ReviewSessionScreen() {
  const { t } = useTranslation();
  const record = useRecord({
    model: 'session',
    label: t('Review session'),
    query: sessionQueryOptions,
    homePath: () => paths.app.dashboard(),
  });
  return (
    <RecordView record={record} title={t('Review session')}>
      {(session) => <SessionView session={session} />}
    </RecordView>
  );
}

function SessionView({ session }: { session: TReviewSession }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState(0);
  const [sharing, setSharing] = useState(false);
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const count = session.items.length;
  const index = Math.min(current, Math.max(0, count - 1));
  const item = session.items[index];
  const next = session.items[index + 1];

  const imageRef = useRef<HTMLImageElement | null>(null);
  const [fileIndex, setFileIndex] = useState(0);
  const [draw, setDraw] = useState<TDrawState>(noDrawing);
  const drawings = useDrawings(item?.task.id);
  /** Another item: its first file, nothing being drawn. */
  const go = useCallback((to: (i: number) => number) => {
    setCurrent(to);
    setFileIndex(0);
    setDraw(noDrawing);
  }, []);
  const previous = useCallback(() => go((i) => Math.max(0, i - 1)), [go]);
  const forward = useCallback(() => go((i) => Math.min(count - 1, i + 1)), [go, count]);
  const file = item?.files[Math.min(fileIndex, item.files.length - 1)];
  usePlayerKeys(videoRef, { previous, next: forward });

  const manage = session.abilities.update;
  const move = (from: number, by: -1 | 1) => {
    const order = session.items.map((i) => i.id);
    const [moved] = order.splice(from, 1);
    order.splice(from + by, 0, moved!);
    void updateSession(session.id, { order });
    if (from === index) setCurrent(from + by);
  };

  return (
    <PageCard
      wide
      documentTitle={[session.name, session.project.name]}
      title={<span data-testid="review-session-name">{session.name}</span>}
      actions={
        <Group gap="xs">
          <Button component={Link} to={paths.app.reviewSessions(session.project.id)} variant="default">
            {t('All sessions')}
          </Button>
          {session.abilities.share ? (
            <Button
              leftSection={<IconShare size={16} />}
              onClick={() => setSharing(true)}
              data-testid="review-share-open"
            >
              {t('Share with a client')}
            </Button>
          ) : null}
        </Group>
      }
    >
      <Text size="sm" c="dimmed" mt={-8}>
        {session.project.name} · {t('{{count}} items', { count })} · <Kbd size="xs">←</Kbd> <Kbd size="xs">→</Kbd>{' '}
        {t('items')}, <Kbd size="xs">Space</Kbd> {t('play')}, <Kbd size="xs">,</Kbd> <Kbd size="xs">.</Kbd> {t('frame')}
      </Text>
      {item ? (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 3 }}>
            <ItemList
              items={session.items}
              current={index}
              onSelect={(i) => go(() => i)}
              onMove={manage ? move : undefined}
              onRemove={manage ? (gone) => void removeItem(session.id, gone.id) : undefined}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 9 }}>
            <Stack gap="sm" data-testid="review-current" data-item={item.id}>
              <Group justify="space-between" gap="xs">
                <Text fw={600} data-testid="review-current-title">
                  <Link to={paths.app.task(item.task.id)}>
                    {item.task.unit.name} · {item.task.stage.name}
                  </Link>
                </Text>
                <Text size="sm" c="dimmed">
                  {item.files_round !== null ? t('Files of round {{round}}', { round: item.files_round }) : null} ·{' '}
                  {index + 1} / {count}
                </Text>
              </Group>
              <ReviewPlayer
                key={`player-${item.id}`}
                files={item.files}
                videoRef={videoRef}
                imageRef={imageRef}
                index={fileIndex}
                onIndex={(i) => {
                  setFileIndex(i);
                  setDraw(noDrawing);
                }}
                overlay={
                  <DrawingLayer
                    shapes={draw.tool ? draw.shapes : (draw.viewing?.shapes ?? [])}
                    tool={draw.tool}
                    color={draw.color}
                    width={3}
                    text={draw.text}
                    onAdd={(shape) => setDraw((d) => ({ ...d, shapes: [...d.shapes, shape] }))}
                  />
                }
              />
              {file ? (
                <DrawPanel
                  key={`draw-${item.id}`}
                  task={item.task.id}
                  file={file}
                  media={() => (file.preview === 'video' ? videoRef.current : imageRef.current)}
                  state={draw}
                  onChange={setDraw}
                  saved={drawings.data ?? []}
                />
              ) : null}
              <DecisionBar
                key={`decision-${item.id}`}
                session={session}
                item={item}
                onDecided={(after, left) => {
                  if (!left) return;
                  go(() => Math.min(index, after.items.length - 1));
                }}
              />
              <ClientFeedbackList feedback={item.client_feedback} />
              <CommentsPanel
                key={`comments-${item.task.id}`}
                target={{ task: item.task.id }}
                workspaceId={session.workspace}
              />
              {next ? <Preload files={next.files} /> : null}
            </Stack>
          </Grid.Col>
        </Grid>
      ) : (
        <Text c="dimmed" data-testid="review-empty">
          {t('This session has no items left.')}
        </Text>
      )}
      <Modal opened={sharing} onClose={() => setSharing(false)} title={t('Share with a client')} size="lg">
        <SharePanel sessionId={session.id} />
      </Modal>
    </PageCard>
  );
}
