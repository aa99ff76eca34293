import { buildGuide } from './guide';

/**
 * The guide's sources, bundled at build time into the lazily loaded docs chunk: docs/guide at the
 * repository root (inside Vite's default fs.allow, the workspace root). Search runs over this.
 */
const sources = import.meta.glob<string>('../../../../../../docs/guide/*/*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
});

const assetUrls = import.meta.glob<string>('../../../../../../docs/guide/assets/*.svg', {
  query: '?url',
  import: 'default',
  eager: true,
});

export const guide = buildGuide(sources);

/** The built URL of an image the Markdown names relative to its page (`../assets/x.svg`). */
export function guideAssetUrl(src: string): string | undefined {
  const name = src.split('/').pop();
  const key = Object.keys(assetUrls).find((path) => path.endsWith(`/assets/${name}`));
  return key ? assetUrls[key] : undefined;
}
