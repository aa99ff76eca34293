/** What the rest of the app may use of files (docs/files.md). */
export { FilesPanel } from './components/files-panel';
export { AttachmentList } from './components/attachment-list';
export { UploadQueue } from './components/upload-queue';
export { useAttachments, attachmentKeys, type TFilesTarget } from './api';
export { useUploads } from './use-uploads';
export { setUploadLimit } from './upload-limit';
export { FileTypesSection } from './components/file-types-section';
