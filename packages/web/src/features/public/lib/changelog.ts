/**
 * CHANGELOG.md in the Keep a Changelog format, parsed at build time into releases: `## [Unreleased]`
 * or `## [x.y.z] - YYYY-MM-DD`, each with `### Added / Changed / …` lists. An entry keeps its
 * Markdown (continuation lines and nested lists included), dedented, for rendering as is.
 */
export type TChangeSection = { name: string; items: string[] };
export type TRelease = {
  version: string;
  unreleased: boolean;
  date: string | null;
  yanked: boolean;
  sections: TChangeSection[];
};

const releaseHeading = /^##\s+\[?([^\]\s]+)\]?(?:\s+-\s+(\d{4}-\d{2}-\d{2}))?(\s+\[YANKED\])?\s*$/i;
const sectionHeading = /^###\s+(.+?)\s*$/;
const linkDefinition = /^\[[^\]]+\]:\s+\S+/;

/** Parses the releases of a Keep a Changelog document, newest first as written. */
export function parseChangelog(markdown: string): TRelease[] {
  const releases: TRelease[] = [];
  let release: TRelease | null = null;
  let section: TChangeSection | null = null;
  let item: string[] | null = null;

  const closeItem = () => {
    if (item && section) section.items.push(item.join('\n').trim());
    item = null;
  };

  for (const line of markdown.split(/\r?\n/)) {
    const releaseMatch = releaseHeading.exec(line);
    if (releaseMatch) {
      closeItem();
      const version = releaseMatch[1]!;
      release = {
        version,
        unreleased: version.toLowerCase() === 'unreleased',
        date: releaseMatch[2] ?? null,
        yanked: Boolean(releaseMatch[3]),
        sections: [],
      };
      releases.push(release);
      section = null;
      continue;
    }
    if (/^#{1,2}\s/.test(line) || linkDefinition.test(line)) {
      closeItem();
      if (/^#{1,2}\s/.test(line)) release = null;
      section = null;
      continue;
    }
    if (!release) continue;
    const sectionMatch = sectionHeading.exec(line);
    if (sectionMatch) {
      closeItem();
      section = { name: sectionMatch[1]!, items: [] };
      release.sections.push(section);
      continue;
    }
    if (!section) continue;
    const bullet = /^[-*+]\s+(.*)$/.exec(line);
    if (bullet) {
      closeItem();
      item = [bullet[1]!];
    } else if (item && (/^\s+\S/.test(line) || line.trim() === '')) {
      item.push(line.replace(/^ {1,2}/, ''));
    } else if (line.trim()) {
      closeItem();
    }
  }
  closeItem();
  return releases;
}
