/** What other features and the app use of files: the routes, the storage and the sweep job. */
export { attachmentsRoutes } from './routes';
export { createStorage, type FileStorage } from './storage';
export { sweepAttachments, type FilesContext } from './service';
