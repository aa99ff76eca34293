import { z } from 'zod';
import { Limits } from '../limits';
import { ZId, ZOffset, ZPageLimit } from '../validation';
import { ZUserRef } from './units';

/**
 * Comments on units and tasks (docs/rules.md §Web, §API): GitHub-flavoured Markdown, rendered
 * on the client as text only (no raw HTML ever runs). `@username` mentions of workspace members
 * notify them.
 */

const ZCommentText = z.string().trim().min(1).max(Limits.comment.max);

/** POST comments/ → 201 `ZComment`. Exactly one of `task` or `unit`. */
export const ZCommentCreate = z
  .object({
    task: z.number().int().positive().max(Limits.maxId).optional(),
    unit: z.number().int().positive().max(Limits.maxId).optional(),
    text: ZCommentText,
  })
  .refine((value) => (value.task === undefined) !== (value.unit === undefined), {
    message: 'A comment belongs to a task or to a unit',
    path: ['task'],
  });
export type TCommentCreate = z.infer<typeof ZCommentCreate>;

/** PATCH comments/{id}/ (the author only). */
export const ZCommentPatch = z.object({ text: ZCommentText });

export const ZComment = z.object({
  id: z.number().int(),
  task: z.number().int().nullable(),
  unit: z.number().int().nullable(),
  /** null when the author's account was deleted. */
  author: ZUserRef.nullable(),
  text: z.string(),
  /** Members the text mentions (`@username`), resolved when it was written. */
  mentions: z.array(ZUserRef),
  created_at: z.string(),
  /** Set when the text was edited after posting. */
  edited_at: z.string().nullable(),
});
export type TComment = z.infer<typeof ZComment>;

/** GET comments/?task= or ?unit=: oldest first, paginated. */
export const ZCommentListQuery = z
  .object({
    task: ZId.optional(),
    unit: ZId.optional(),
    offset: ZOffset,
    limit: ZPageLimit,
  })
  .refine((value) => (value.task === undefined) !== (value.unit === undefined), {
    message: 'A comment belongs to a task or to a unit',
    path: ['task'],
  });
export const ZCommentList = z.object({
  count: z.number().int(),
  next: z.number().int().nullable(),
  results: z.array(ZComment),
});
export type TCommentList = z.infer<typeof ZCommentList>;

/** The usernames a Markdown text mentions, lowercased and unique, in order of appearance. */
export function mentionedUsernames(text: string): string[] {
  const found = new Set<string>();
  // Not inside a word or an e-mail address (`a@b.c`), not in inline code.
  const withoutCode = text.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ');
  for (const match of withoutCode.matchAll(/(^|[^\p{L}\p{N}_@.-])@([\p{L}\p{N}_.-]+)/gu)) {
    // A sentence may end right after the name: `thanks @bob.`
    const name = match[2]!.replace(/[.-]+$/, '');
    if (name.length >= Limits.username.min && name.length <= Limits.username.max) found.add(name.toLowerCase());
  }
  return [...found];
}
