/**
 * Which files a workspace takes (decision 198): files fall into groups, and a workspace allows some of
 * them, by default media, documents and archives. `other` is everything else — programs, scripts,
 * web pages, unknown kinds — and is refused unless an Admin allows it. Pure, so the server decides
 * and the settings screen names the same groups.
 */
export const FileTypeGroups = ['media', 'documents', 'archives', 'other'] as const;
export type TFileTypeGroup = (typeof FileTypeGroups)[number];
export const DefaultFileTypeGroups: readonly TFileTypeGroup[] = ['media', 'documents', 'archives'];

/** The English labels of the groups (i18n keys) and examples of each, for the settings screen. */
export const FileTypeGroupLabels: Record<TFileTypeGroup, string> = {
  media: 'Media: images, video, audio, 3D',
  documents: 'Documents: PDF, office, text, subtitles',
  archives: 'Archives: ZIP, 7z, RAR, tar',
  other: 'Anything else: programs, scripts, web pages, unknown kinds',
};

const extensions: Record<Exclude<TFileTypeGroup, 'other'>, readonly string[]> = {
  media: [
    ...['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'heic', 'heif', 'bmp', 'tif', 'tiff', 'svg', 'psd', 'psb'],
    ...['exr', 'dpx', 'tga', 'hdr', 'ico', 'kra', 'xcf', 'ai', 'eps', 'raw', 'cr2', 'nef', 'dng'],
    ...['mp4', 'mov', 'm4v', 'webm', 'mkv', 'avi', 'mxf', 'wmv', 'mpg', 'mpeg', 'ogv', 'prores'],
    ...['mp3', 'wav', 'flac', 'aac', 'ogg', 'oga', 'm4a', 'opus', 'aif', 'aiff'],
    ...['blend', 'fbx', 'obj', 'abc', 'usd', 'usda', 'usdc', 'usdz', 'glb', 'gltf', 'ma', 'mb', 'c4d', 'max', 'stl'],
  ],
  documents: [
    ...['pdf', 'doc', 'docx', 'odt', 'rtf', 'txt', 'md', 'csv', 'tsv', 'xls', 'xlsx', 'ods'],
    ...['ppt', 'pptx', 'odp', 'key', 'pages', 'numbers', 'json', 'xml', 'yaml', 'yml', 'srt', 'vtt', 'fdx', 'fountain'],
  ],
  archives: ['zip', '7z', 'rar', 'tar', 'gz', 'tgz', 'bz2', 'xz', 'zst'],
};
const groupOfExtension = new Map<string, TFileTypeGroup>(
  Object.entries(extensions).flatMap(([group, list]) => list.map((ext) => [ext, group as TFileTypeGroup])),
);

/** Content types that are programs or pages whatever the file is called: always `other`. */
const alwaysOther = [
  /^application\/(x-msdownload|x-msdos-program|x-dosexec|vnd\.microsoft\.portable-executable)$/,
  /^application\/(x-executable|x-elf|x-mach-binary|x-sharedlib|wasm|java-archive|x-msi|x-ms-installer)$/,
  /^application\/(x-sh|x-shellscript|javascript|x-apple-diskimage|vnd\.android\.package-archive)$/,
  /^text\/(html|javascript)$/,
];

function groupOfContentType(type: string): TFileTypeGroup | null {
  if (/^(image|video|audio|model)\//.test(type)) return 'media';
  if (
    /^(application\/pdf|text\/|application\/(msword|rtf|json|xml)$|application\/vnd\.(openxmlformats|oasis|ms-))/.test(
      type,
    )
  )
    return 'documents';
  if (/^application\/(zip|x-7z-compressed|x-rar-compressed|vnd\.rar|x-tar|gzip|x-gzip|x-bzip2|x-xz|zstd)$/.test(type))
    return 'archives';
  return null;
}

/** A file name's extension, lower case, without the dot; null when it has none. */
export function fileExtension(name: string): string | null {
  const match = /\.([^./\\]+)$/.exec(name.trim());
  return match && match[1] !== undefined && match.index > 0 ? match[1].toLowerCase() : null;
}

/**
 * The group of a file by its name and, once its first bytes are read, its detected content type, with
 * the type a refusal names (`.exe`, or the content type when it is what gives the file away).
 */
export function fileTypeGroup(file: { name: string; contentType?: string }): {
  /** null: no extension and no bytes read yet, so not known. */
  group: TFileTypeGroup | null;
  type: string;
} {
  const ext = fileExtension(file.name);
  const content = file.contentType;
  if (content && alwaysOther.some((re) => re.test(content))) return { group: 'other', type: content };
  if (ext !== null) return { group: groupOfExtension.get(ext) ?? 'other', type: `.${ext}` };
  if (!content) return { group: null, type: '' };
  return { group: groupOfContentType(content) ?? 'other', type: content };
}

/** The groups as a workspace stores them: known names only, in their order, no repeats. */
export function normalizeFileTypeGroups(groups: readonly string[]): TFileTypeGroup[] {
  return FileTypeGroups.filter((group) => groups.includes(group));
}
