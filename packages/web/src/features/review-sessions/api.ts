import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ZPipeline, ZPipelineSummary, ZTask } from '@stageline/shared';
import {
  ZDrawing,
  ZDrawingList,
  ZReviewLinkCreated,
  ZReviewLinkList,
  ZReviewSession,
  ZReviewSessionList,
  ZReviewLink,
  type TDrawingCreate,
  type TReviewDecision,
  type TReviewLinkCreate,
  type TReviewSessionCreate,
  type TReviewSessionPatch,
} from '@stageline/shared/review-sessions';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';
import { attachmentKeys } from '../attachments';
import { commentKeys } from '../comments';

/**
 * Review sessions as the team uses them (docs/review-sessions.md): one owner of `['review-sessions', …]`.
 * Changes answer the whole session, which replaces the cached one.
 */
export const reviewKeys = {
  all: ['review-sessions'] as const,
  list: (project: number) => ['review-sessions', 'list', project] as const,
  detail: (id: number) => ['review-sessions', 'detail', id] as const,
  links: (id: number) => ['review-sessions', 'links', id] as const,
  stages: (project: number) => ['review-sessions', 'stages', project] as const,
  drawings: (task: number) => ['review-sessions', 'drawings', task] as const,
};

export const sessionQueryOptions = (id: number) =>
  queryOptions({
    queryKey: reviewKeys.detail(id),
    queryFn: async ({ signal }) => ZReviewSession.parse(await api.get(`review_sessions/${id}/`, { signal })),
  });
export const useSession = (id: number) => useQuery(sessionQueryOptions(id));

export const useSessions = (project: number) =>
  useQuery({
    queryKey: reviewKeys.list(project),
    queryFn: async ({ signal }) =>
      ZReviewSessionList.parse(await api.get('review_sessions/', { query: { project }, signal })).results,
  });

const keep = (session: z.infer<typeof ZReviewSession>) => {
  queryClient.setQueryData(reviewKeys.detail(session.id), session);
  void queryClient.invalidateQueries({ queryKey: reviewKeys.list(session.project.id) });
  return session;
};

/** POST review_sessions/: errors stay with the form (field errors name `source` or `name`). */
export async function createSession(body: TReviewSessionCreate) {
  return keep(ZReviewSession.parse(await api.post('review_sessions/', body, { silent: true })));
}

export async function updateSession(id: number, body: TReviewSessionPatch) {
  return keep(ZReviewSession.parse(await api.patch(`review_sessions/${id}/`, body)));
}

export async function removeItem(id: number, item: number) {
  return keep(ZReviewSession.parse(await api.delete(`review_sessions/${id}/items/${item}/`)));
}

/** POST …/decide/: the task changed too, so its screen and lists refetch. */
export async function decideItem(id: number, item: number, taskId: number, body: TReviewDecision) {
  const session = keep(ZReviewSession.parse(await api.post(`review_sessions/${id}/items/${item}/decide/`, body)));
  await queryClient.invalidateQueries({ queryKey: ['tasks', taskId] });
  return session;
}

/** The task of an item with its predecessors (what the reject dialog offers to send back). */
export const useItemTask = (taskId: number | undefined) =>
  useQuery({
    queryKey: ['tasks', taskId],
    queryFn: async ({ signal }) => ZTask.parse(await api.get(`tasks/${taskId}/`, { signal })),
    enabled: taskId !== undefined,
  });

export const useLinks = (session: number, enabled: boolean) =>
  useQuery({
    queryKey: reviewKeys.links(session),
    queryFn: async ({ signal }) =>
      ZReviewLinkList.parse(await api.get(`review_sessions/${session}/links/`, { signal })).results,
    enabled,
  });

export async function createLink(session: number, body: TReviewLinkCreate) {
  const link = ZReviewLinkCreated.parse(await api.post(`review_sessions/${session}/links/`, body, { silent: true }));
  await queryClient.invalidateQueries({ queryKey: reviewKeys.links(session) });
  return link;
}

export async function revokeLink(session: number, link: number) {
  ZReviewLink.parse(await api.post(`review_links/${link}/revoke/`));
  await queryClient.invalidateQueries({ queryKey: reviewKeys.links(session) });
}

/** The project's stages by pipeline, with how many of their tasks are in each status (the stage source). */
export const useProjectStages = (project: number) =>
  useQuery({
    queryKey: reviewKeys.stages(project),
    queryFn: async ({ signal }) => {
      const list = z
        .array(ZPipelineSummary)
        .parse(await api.get('pipelines/', { query: { project, counters: 'false' }, signal }));
      const pipelines = await Promise.all(
        list.map(async (p) => ZPipeline.parse(await api.get(`pipelines/${p.id}/`, { signal }))),
      );
      return pipelines.flatMap((p) =>
        p.nodes
          .filter((n) => n.kind === 'stage')
          .map((n) => ({ id: n.id, name: n.name, pipeline: p.name, counters: p.stage_counters[String(n.id)] })),
      );
    },
  });

/** GET drawings/?task=: the drawings of the task's comments. */
export const useDrawings = (task: number | undefined) =>
  useQuery({
    enabled: task !== undefined,
    queryKey: reviewKeys.drawings(task ?? 0),
    queryFn: async ({ signal }) =>
      ZDrawingList.parse(await api.get('drawings/', { query: { task: task! }, signal, silent: true })).results,
  });

/**
 * A drawing with its comment (docs/review-sessions.md): the comment first (the drawing goes with it),
 * then the shapes, then the PNG of frame and shapes as a file of the comment.
 */
export async function sendDrawing({
  task,
  text,
  drawing,
  png,
}: {
  task: number;
  text: string;
  drawing: Omit<TDrawingCreate, 'comment'>;
  png: Blob | null;
}) {
  const comment = z.object({ id: z.number() }).parse(await api.post('comments/', { task, text }));
  const saved = ZDrawing.parse(await api.post('drawings/', { ...drawing, comment: comment.id }));
  if (png)
    await api.upload(
      'attachments/',
      { file: new File([png], 'drawing.png', { type: 'image/png' }) },
      { comment: String(comment.id) },
    );
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: reviewKeys.drawings(task) }),
    queryClient.invalidateQueries({ queryKey: commentKeys.all }),
    queryClient.invalidateQueries({ queryKey: attachmentKeys.all }),
  ]);
  return saved;
}
