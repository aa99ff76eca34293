import { useMutation, useQuery } from '@tanstack/react-query';
import {
  ZAttachment,
  ZAttachmentList,
  ZFileTypes,
  type TAttachment,
  type TErrorBody,
  type TFileTypeGroup,
} from '@stageline/shared';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';
import { tokenStore } from '../../shared/api/tokens';
import { currentLanguage } from '../../shared/i18n';

/**
 * File calls (docs/files.md). A list holds the files of a task or unit and of its comments; its
 * URLs carry tokens that expire after minutes, so it is refetched after ten.
 */
export type TFilesTarget = { task: number } | { unit: number };
/** Where one upload goes: a task, a unit or a comment. */
export type TUploadTarget = TFilesTarget | { comment: number };

export const attachmentKeys = {
  all: ['attachments'] as const,
  list: (target: TFilesTarget) => ['attachments', target] as const,
  fileTypes: (workspaceId: number) => ['file-types', workspaceId] as const,
};

/** GET workspaces/{id}/file_types/: the groups of files the workspace takes (decision 198). */
export const useFileTypes = (workspaceId: number) =>
  useQuery({
    queryKey: attachmentKeys.fileTypes(workspaceId),
    queryFn: async ({ signal }) =>
      ZFileTypes.parse(await api.get(`workspaces/${workspaceId}/file_types/`, { signal, silent: true })),
  });

/** PUT workspaces/{id}/file_types/ (Admins). */
export const useSetFileTypes = (workspaceId: number) =>
  useMutation({
    mutationFn: async (allowed: TFileTypeGroup[]) =>
      ZFileTypes.parse(await api.put(`workspaces/${workspaceId}/file_types/`, { allowed }, { silent: true })),
    onSuccess: (saved) => queryClient.setQueryData(attachmentKeys.fileTypes(workspaceId), saved),
  });

export const useAttachments = (target: TFilesTarget) =>
  useQuery({
    queryKey: attachmentKeys.list(target),
    queryFn: async ({ signal }) =>
      ZAttachmentList.parse(await api.get('attachments/', { query: target, signal, silent: true })).results,
    staleTime: 60_000,
    refetchInterval: 10 * 60_000,
  });

/** Refetches every file list on screen (after an upload or a delete). */
export const refreshAttachments = () => queryClient.invalidateQueries({ queryKey: attachmentKeys.all });

/** An upload that failed: the server's translated reason when it gave one. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

function post(
  target: TUploadTarget,
  file: File,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    // The target first: the server reads it before the file's bytes arrive.
    for (const [key, value] of Object.entries(target)) form.append(key, String(value));
    form.append('file', file, file.name);
    // XMLHttpRequest, not fetch: only it reports upload progress.
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/attachments/');
    const access = tokenStore.get()?.access;
    if (access) xhr.setRequestHeader('Authorization', `Bearer ${access}`);
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new UploadError('', 0));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/**
 * POST attachments/ with progress; a 401 for an expired access token refreshes it once and tries
 * again, as the app's transport does.
 */
export async function uploadFile(
  target: TUploadTarget,
  file: File,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<TAttachment> {
  let answer = await post(target, file, onProgress, signal);
  if (answer.status === 401 && (await api.refresh()) === 'ok') answer = await post(target, file, onProgress, signal);
  if (answer.status === 201) return ZAttachment.parse(answer.body);
  const detail = (answer.body as Partial<TErrorBody> | null)?.detail;
  const fields = answer.body as Record<string, string[]> | null;
  const fieldMessage = fields && typeof fields === 'object' ? Object.values(fields).flat()[0] : undefined;
  throw new UploadError(
    typeof detail === 'string' ? detail : typeof fieldMessage === 'string' ? fieldMessage : '',
    answer.status,
  );
}

/** DELETE attachments/{id}/ (the author, or Admin+). */
export const useDeleteAttachment = () =>
  useMutation({
    mutationFn: async (file: TAttachment) => {
      await api.delete(`attachments/${file.id}/`, { silent: true });
    },
    onSuccess: () => void refreshAttachments(),
  });
