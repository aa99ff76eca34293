import { z } from 'zod';
import { FileTypeGroups } from '../file-types';
import { Limits } from '../limits';
import { ZId } from '../validation';
import { ZUserRef } from './units';

/**
 * Files on tasks, units and comments (docs/files.md). The bytes are served by
 * `content_url`, which carries a short-lived token of the caller, so `<img>` and `<video>` can load
 * it without a bearer header.
 */

/** How the web app shows a file: a thumbnail and lightbox, a player, the browser's PDF viewer, or a download. */
export const AttachmentPreviews = ['image', 'video', 'pdf'] as const;
export type TAttachmentPreview = (typeof AttachmentPreviews)[number];

export const ZAttachment = z.object({
  id: z.number().int(),
  /** The name the file was uploaded with (Unicode kept). */
  name: z.string(),
  size: z.number().int(),
  /** Detected from the bytes, never taken from the client. */
  content_type: z.string(),
  created_at: z.string(),
  /** null when the author's account was deleted. */
  author: ZUserRef.nullable(),
  task: z.number().int().nullable(),
  unit: z.number().int().nullable(),
  comment: z.number().int().nullable(),
  /**
   * The review round the file goes with: the open round while the task is in review, else the one its
   * next submit opens (files and files of comments of a task; null on a unit).
   */
  round: z.number().int().nullable(),
  preview: z.enum(AttachmentPreviews).nullable(),
  /** The bytes (`Range` supported); valid for `Limits.attachmentUrlMinutes`. */
  content_url: z.string(),
  /** A small WebP of an image, when one could be made. */
  thumbnail_url: z.string().nullable(),
  /**
   * The thumbnail is being made after the upload (docs/files.md): a live `files` event with action
   * `updated` says when it is done. False with no `thumbnail_url`: none could be made (too large,
   * unreadable), and the list shows an icon rather than load the whole image.
   */
  thumbnail_pending: z.boolean(),
  abilities: z.object({ delete: z.boolean() }),
});
export type TAttachment = z.infer<typeof ZAttachment>;

/** GET attachments/?task= (with the files of its comments) or ?unit= (with its comments' files). */
export const ZAttachmentListQuery = z
  .object({ task: ZId.optional(), unit: ZId.optional() })
  .refine((value) => (value.task === undefined) !== (value.unit === undefined), {
    message: 'Files belong to a task, a unit or a comment',
    path: ['task'],
  });
export const ZAttachmentList = z.object({ count: z.number().int(), results: z.array(ZAttachment) });
export type TAttachmentList = z.infer<typeof ZAttachmentList>;

/** The multipart text fields that precede `file` in POST attachments/: exactly one target. */
export const ZAttachmentTarget = z
  .object({
    task: z.coerce.number().int().positive().max(Limits.maxId).optional(),
    unit: z.coerce.number().int().positive().max(Limits.maxId).optional(),
    comment: z.coerce.number().int().positive().max(Limits.maxId).optional(),
  })
  .refine((v) => [v.task, v.unit, v.comment].filter((x) => x !== undefined).length === 1, {
    message: 'Files belong to a task, a unit or a comment',
    path: ['task'],
  });
export type TAttachmentTarget = z.infer<typeof ZAttachmentTarget>;

/** `?token=` of a content or thumbnail URL. */
export const ZAttachmentContentQuery = z.object({ token: z.string().max(2000).optional() });

/**
 * GET and PUT workspaces/{id}/file_types/: the groups of files a workspace takes (decision 198). Every
 * member reads them (the upload screens can say what is taken); Admins change them.
 */
export const ZFileTypes = z.object({
  allowed: z
    .array(z.enum(FileTypeGroups))
    .max(FileTypeGroups.length)
    .refine((list) => new Set(list).size === list.length, { message: 'Each group once' }),
});
export type TFileTypes = z.infer<typeof ZFileTypes>;
