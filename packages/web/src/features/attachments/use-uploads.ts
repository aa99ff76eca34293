import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TAttachment } from '@stageline/shared';
import { refreshAttachments, uploadFile, UploadError, type TUploadTarget } from './api';
import { takeUploadPlace, uploadLimitMb } from './upload-limit';

/** One file on its way: how far it got, or why it failed. */
export type TUpload = { key: number; name: string; progress: number; error: string | null };

let nextKey = 1;

/**
 * Several uploads at once, each with its progress and a cancel (docs/files.md). Finished files leave
 * the queue and the file lists refetch; failed ones stay with the reason until dismissed.
 */
export function useUploads() {
  const { t } = useTranslation();
  const [uploads, setUploads] = useState<TUpload[]>([]);
  const controllers = useRef(new Map<number, AbortController>());
  const patch = (key: number, change: Partial<TUpload>) =>
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));
  const remove = useCallback((key: number) => {
    controllers.current.get(key)?.abort();
    controllers.current.delete(key);
    setUploads((list) => list.filter((u) => u.key !== key));
  }, []);

  const start = useCallback(
    async (target: TUploadTarget, files: File[]): Promise<TAttachment[]> => {
      const done = await Promise.all(
        files.map(async (file) => {
          const key = nextKey++;
          const controller = new AbortController();
          controllers.current.set(key, controller);
          // Too large: say so at once rather than send it all to hear the server's 413.
          const limitMb = uploadLimitMb();
          if (limitMb !== null && file.size > limitMb * 1024 * 1024) {
            const error = t('A file can be at most {{mb}} MB.', { mb: limitMb });
            setUploads((list) => [...list, { key, name: file.name, progress: 0, error }]);
            return null;
          }
          setUploads((list) => [...list, { key, name: file.name, progress: 0, error: null }]);
          // At most MAX_UPLOADS_IN_FLIGHT at once: the rest wait at 0 % (the server refuses more).
          const free = await takeUploadPlace();
          try {
            if (controller.signal.aborted) return null;
            const stored = await uploadFile(target, file, (progress) => patch(key, { progress }), controller.signal);
            remove(key);
            return stored;
          } catch (error) {
            if (error instanceof DOMException && error.name === 'AbortError') return null;
            const message = error instanceof UploadError && error.message ? error.message : t('File not uploaded');
            patch(key, { error: message });
            controllers.current.delete(key);
            return null;
          } finally {
            free();
          }
        }),
      );
      void refreshAttachments();
      return done.filter((file): file is TAttachment => file !== null);
    },
    [remove, t],
  );
  return { uploads, start, cancel: remove };
}
