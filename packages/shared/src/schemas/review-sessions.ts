import { z } from 'zod';
import { Limits } from '../limits';
import { ZId } from '../validation';
import { AttachmentPreviews, ZAttachment } from './attachments';
import { ZTaskStatus } from './units';

/**
 * Review sessions (playlists of tasks), their client share links and what clients say through them
 * (docs/review-sessions.md, issue 36).
 */

export const ReviewSessionLimits = {
  name: { max: 100 },
  /** Items of one session: a whole stage of a feature film fits. */
  items: { max: 500 },
  clientName: { max: 80 },
  password: { min: 8, max: 200 },
  /** Days a share link may live. */
  linkDays: { min: 1, max: 90, default: 14 },
  /** Wrong passwords on one link in `lockMinutes` before it is locked for the rest of them. */
  passwordTries: 5,
  lockMinutes: 15,
  /** Minutes a client's opened link stays open before the page asks again. */
  accessMinutes: 12 * 60,
} as const;

export const ReviewSessionMessages = {
  nameRequired: 'Give the session a name.',
  noTasks: 'None of these tasks can be added: they are not tasks of this project.',
  tooMany: 'A session holds at most 500 items.',
  notInProject: 'This task is not in the session’s project.',
  itemGone: 'This item is no longer in the session. Reload it.',
  orderMismatch: 'The order must list every item of the session once.',
  viewNotInProject: 'This view is not one of the project’s.',
  stageNotInProject: 'This stage is not in the session’s project.',
  shareNotAllowed: 'Only Admins can share review sessions in this workspace.',
  linkExpired: 'This review link has expired. Ask for a new one.',
  linkRevoked: 'This review link was withdrawn. Ask for a new one.',
  linkUnknown: 'This review link does not exist. Check the address.',
  wrongPassword: 'Wrong password.',
  passwordRequired: 'Enter the password of this link.',
  locked: 'Too many wrong passwords: the link is locked for {{minutes}} minutes.',
  accessExpired: 'Open the link again.',
  mayNotComment: 'This link does not take comments.',
  mayNotDecide: 'This link does not take approvals.',
  clientNameRequired: 'Enter your name.',
  commentRequired: 'Write a comment.',
} as const;

const ZName = z
  .string()
  .trim()
  .min(1, { message: ReviewSessionMessages.nameRequired })
  .max(ReviewSessionLimits.name.max);

/** Where a session's tasks come from: picked ids (the matrix selection), a saved view, or a stage and status. */
export const ZReviewSource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tasks'), tasks: z.array(ZId).min(1).max(ReviewSessionLimits.items.max) }),
  z.object({ kind: z.literal('view'), view: ZId }),
  z.object({ kind: z.literal('stage'), stage: ZId, status: ZTaskStatus.default('review') }),
]);
export type TReviewSource = z.infer<typeof ZReviewSource>;

/** POST review_sessions/ */
export const ZReviewSessionCreate = z.object({ project: ZId, name: ZName, source: ZReviewSource });
export type TReviewSessionCreate = z.input<typeof ZReviewSessionCreate>;

/** PATCH review_sessions/{id}/: rename, reorder (every item id once, in the new order). */
export const ZReviewSessionPatch = z.object({
  name: ZName.optional(),
  order: z.array(ZId).max(ReviewSessionLimits.items.max).optional(),
});
export type TReviewSessionPatch = z.infer<typeof ZReviewSessionPatch>;

/** POST review_sessions/{id}/items/: more tasks at the end. */
export const ZReviewItemsAdd = z.object({ source: ZReviewSource });

/** POST review_sessions/{id}/items/{item}/decide/: accept or reject the item's task, then keep or drop it. */
export const ZReviewDecision = z.object({
  verdict: z.enum(['accept', 'reject']),
  comment: z.string().trim().max(Limits.comment.max).optional(),
  /** A reject's stages to redo, as on POST tasks/{id}/reject/. */
  return_to: z.array(ZId).max(100).optional(),
  /** Keep the item in the session after the decision (false: it leaves). */
  keep: z.boolean().default(true),
});
export type TReviewDecision = z.input<typeof ZReviewDecision>;

export const ClientFeedbackKinds = ['comment', 'approve', 'changes'] as const;
export type TClientFeedbackKind = (typeof ClientFeedbackKinds)[number];

/** What a client said about a task: as the team sees it. */
export const ZClientFeedback = z.object({
  id: z.number().int(),
  kind: z.enum(ClientFeedbackKinds),
  /** The name the client typed (not an account). */
  name: z.string(),
  text: z.string(),
  round: z.number().int(),
  created_at: z.string(),
  session: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type TClientFeedback = z.infer<typeof ZClientFeedback>;
export const ZClientFeedbackList = z.object({ results: z.array(ZClientFeedback) });

const ZItemTask = z.object({
  id: z.number().int(),
  status: ZTaskStatus,
  /** The task's review round now. */
  round: z.number().int(),
  unit: z.object({ id: z.number().int(), name: z.string() }),
  stage: z.object({ id: z.number().int(), name: z.string() }),
});

/** One item of a session: its task and the files of the task's latest round that has files. */
export const ZReviewItem = z.object({
  id: z.number().int(),
  position: z.number().int(),
  task: ZItemTask,
  /** The round `files` belong to, or null when the task has no files yet. */
  files_round: z.number().int().nullable(),
  files: z.array(ZAttachment),
  /** What clients said about the task (the latest first). */
  client_feedback: z.array(ZClientFeedback),
});
export type TReviewItem = z.infer<typeof ZReviewItem>;

export const ZReviewSession = z.object({
  id: z.number().int(),
  workspace: z.number().int(),
  project: z.object({ id: z.number().int(), name: z.string() }),
  name: z.string(),
  author: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
  items: z.array(ZReviewItem),
  abilities: z.object({ update: z.boolean(), delete: z.boolean(), share: z.boolean() }),
});
export type TReviewSession = z.infer<typeof ZReviewSession>;

export const ZReviewSessionSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  project: z.number().int(),
  items_count: z.number().int(),
  created_at: z.string(),
});
export const ZReviewSessionList = z.object({ results: z.array(ZReviewSessionSummary) });
export type TReviewSessionSummary = z.infer<typeof ZReviewSessionSummary>;
export const ZReviewSessionListQuery = z.object({ project: ZId });

/** POST review_sessions/{id}/links/ */
export const ZReviewLinkCreate = z.object({
  days: z
    .number()
    .int()
    .min(ReviewSessionLimits.linkDays.min)
    .max(ReviewSessionLimits.linkDays.max)
    .default(ReviewSessionLimits.linkDays.default),
  password: z.string().min(ReviewSessionLimits.password.min).max(ReviewSessionLimits.password.max).optional(),
  may_comment: z.boolean().default(true),
  may_decide: z.boolean().default(false),
});
export type TReviewLinkCreate = z.input<typeof ZReviewLinkCreate>;

export const ZReviewLink = z.object({
  id: z.number().int(),
  session: z.number().int(),
  has_password: z.boolean(),
  may_comment: z.boolean(),
  may_decide: z.boolean(),
  expires_at: z.string(),
  created_at: z.string(),
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  revoked_at: z.string().nullable(),
  /** Active: neither revoked nor past its expiry. */
  active: z.boolean(),
});
export type TReviewLink = z.infer<typeof ZReviewLink>;
/** The answer to creating a link: the only time its token is shown (only its HMAC is stored). */
export const ZReviewLinkCreated = ZReviewLink.extend({ token: z.string(), path: z.string() });
export type TReviewLinkCreated = z.infer<typeof ZReviewLinkCreated>;
export const ZReviewLinkList = z.object({ results: z.array(ZReviewLink) });

/* The client's side: no account, only the link. */

export const ZClientTokenParams = z.object({ token: z.string().min(1).max(100) });
export const ZClientItemParams = ZClientTokenParams.extend({ item: ZId });
export const ZClientFileParams = ZClientTokenParams.extend({ file: ZId });
export const ZClientAccessQuery = z.object({ access: z.string().max(2000).optional() });

/** GET client/{token}/: what the link asks before it opens. */
export const ZClientLinkInfo = z.object({ needs_password: z.boolean(), expires_at: z.string() });
export const ZClientOpen = z.object({ password: z.string().max(ReviewSessionLimits.password.max).optional() });
/** The opened link: `access` goes with every other client call (header `x-review-access` or `?access=`). */
export const ZClientAccess = z.object({ access: z.string(), expires_at: z.string() });
export type TClientAccess = z.infer<typeof ZClientAccess>;

export const ZClientFile = z.object({
  id: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  content_type: z.string(),
  preview: z.enum(AttachmentPreviews).nullable(),
  round: z.number().int().nullable(),
  content_url: z.string(),
});
export type TClientFile = z.infer<typeof ZClientFile>;

/** What a client sees of an item: no people, only names of the unit and stage and the files. */
export const ZClientItem = z.object({
  id: z.number().int(),
  position: z.number().int(),
  unit: z.string(),
  stage: z.string(),
  round: z.number().int(),
  files: z.array(ZClientFile),
  /** What was said through this link about the item, the latest first. */
  feedback: z.array(ZClientFeedback.omit({ session: true })),
});
export type TClientItem = z.infer<typeof ZClientItem>;

export const ZClientSession = z.object({
  name: z.string(),
  may_comment: z.boolean(),
  may_decide: z.boolean(),
  expires_at: z.string(),
  items: z.array(ZClientItem),
});
export type TClientSession = z.infer<typeof ZClientSession>;

/** POST client/{token}/items/{item}/feedback/ */
export const ZClientFeedbackCreate = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, { message: ReviewSessionMessages.clientNameRequired })
      .max(ReviewSessionLimits.clientName.max),
    kind: z.enum(ClientFeedbackKinds),
    text: z.string().trim().max(Limits.comment.max).default(''),
  })
  .refine((value) => value.kind !== 'comment' || value.text.length > 0, {
    message: ReviewSessionMessages.commentRequired,
    path: ['text'],
  });
export type TClientFeedbackCreate = z.input<typeof ZClientFeedbackCreate>;

/* Drawings on frames (docs/review-sessions.md): vector shapes over a file at a time, with a comment. */

export const DrawingLimits = {
  shapes: 200,
  /** Points of every pen stroke of one drawing together. */
  points: 10_000,
  text: 200,
  width: { min: 1, max: 20 },
  /** Seconds into a video a drawing may be at (a day). */
  time: 86_400,
} as const;

export const DrawingTools = ['pen', 'arrow', 'rect', 'ellipse', 'text'] as const;
export type TDrawingTool = (typeof DrawingTools)[number];

export const DrawingMessages = {
  tooManyPoints: 'A drawing may have at most 10000 points.',
  wrongFile: 'Draw on a file of the comment’s task.',
  notYourComment: 'You can draw only on your own comments.',
} as const;

/** A point in the file's own proportions: 0–1 across and down, so a drawing fits any display size. */
const ZPoint = z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]);
const ZStyle = {
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  width: z.number().min(DrawingLimits.width.min).max(DrawingLimits.width.max),
};
export const ZDrawingShape = z.discriminatedUnion('tool', [
  z.object({ tool: z.literal('pen'), points: z.array(ZPoint).min(1).max(DrawingLimits.points), ...ZStyle }),
  z.object({ tool: z.enum(['arrow', 'rect', 'ellipse']), from: ZPoint, to: ZPoint, ...ZStyle }),
  z.object({ tool: z.literal('text'), at: ZPoint, text: z.string().trim().min(1).max(DrawingLimits.text), ...ZStyle }),
]);
export type TDrawingShape = z.infer<typeof ZDrawingShape>;

/** Points of a drawing's shapes together: a pen stroke counts its points, any other shape 2. */
export const drawingPoints = (shapes: readonly TDrawingShape[]) =>
  shapes.reduce((sum, shape) => sum + (shape.tool === 'pen' ? shape.points.length : 2), 0);

const ZShapes = z
  .array(ZDrawingShape)
  .min(1)
  .max(DrawingLimits.shapes)
  .refine((shapes) => drawingPoints(shapes) <= DrawingLimits.points, { message: DrawingMessages.tooManyPoints });

/** POST drawings/: shapes on a file of the comment's task, at a time of a video (seconds) or on an image. */
export const ZDrawingCreate = z.object({
  comment: ZId,
  file: ZId,
  time: z.number().min(0).max(DrawingLimits.time).nullable().default(null),
  shapes: ZShapes,
});
export type TDrawingCreate = z.input<typeof ZDrawingCreate>;

export const ZDrawing = z.object({
  id: z.number().int(),
  comment: z.number().int(),
  file: z.number().int(),
  round: z.number().int().nullable(),
  time: z.number().nullable(),
  /** The frame at `time` for a 24 fps video (docs/review-sessions.md), null on an image. */
  frame: z.number().int().nullable(),
  shapes: z.array(ZDrawingShape),
  author: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
});
export type TDrawing = z.infer<typeof ZDrawing>;
export const ZDrawingList = z.object({ results: z.array(ZDrawing) });
export const ZDrawingListQuery = z.object({ task: ZId });
