/** What other features and the app use of files: the routes, the storage, thumbnails, image limits and the sweep job. */
export { attachmentsRoutes } from './routes';
export { createStorage, type FileStorage } from './storage';
export { fileOfTasks, latestRoundRows, presentFiles, sweepAttachments, type FilesContext } from './service';
export { sendStoredFile } from './send';
export { previewOf } from './content-type';
export { createThumbnailQueue, type ThumbnailQueue } from './thumbnails';
export { decodeImage, declaredPixels, ImageLimits } from './images';
export { detectContentType } from './content-type';
export type { AttachmentRow } from './policy';
