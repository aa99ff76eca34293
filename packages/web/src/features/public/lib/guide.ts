import { DefaultLanguage, paths } from '@stageline/shared';

/**
 * The user guide: Markdown files in docs/guide/{en,ru}/*.md, the same file names in both languages.
 * The file name is the page's slug (its address, /docs/{slug}); the first `# ` heading is its title
 * and `order:` in the front matter its place. Parsing is pure so it can be tested on any sources.
 */
export type TGuideSection = {
  /** The heading's anchor id; '' for the text before the first `##`. */
  id: string;
  heading: string;
  /** Plain text of the section, for search. */
  text: string;
};

export type TGuidePage = {
  slug: string;
  language: string;
  title: string;
  order: number;
  /** The Markdown without its front matter. */
  body: string;
  sections: TGuideSection[];
};

export type TGuide = Record<string, TGuidePage[]>;

const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/** Lowercases and folds ё into е, so searches ignore case and that letter's two spellings. */
export function normalize(text: string): string {
  return text.toLowerCase().replace(/ё/g, 'е');
}

/** An anchor id from heading text: letters and digits of any script, words joined by '-'. */
export function slugify(text: string): string {
  return normalize(text)
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
}

/** Markdown reduced to the words a reader sees: no markup, link targets or table rules. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/^```.*$/gm, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*\|?[\s|:-]+\|[\s|:-]*$/gm, '')
    .replace(/[*_`>#|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function parseFrontMatter(raw: string): { fields: Record<string, string>; body: string } {
  const match = frontMatter.exec(raw);
  if (!match) return { fields: {}, body: raw };
  const fields: Record<string, string> = {};
  for (const line of match[1]!.split(/\r?\n/)) {
    const pair = /^(\w+):\s*(.*)$/.exec(line.trim());
    if (pair) fields[pair[1]!] = pair[2]!.replace(/^['"]|['"]$/g, '');
  }
  return { fields, body: raw.slice(match[0].length) };
}

/** Splits a page at its `##` and `###` headings (outside code blocks) into searchable sections. */
function splitSections(body: string): TGuideSection[] {
  const sections: { id: string; heading: string; lines: string[] }[] = [{ id: '', heading: '', lines: [] }];
  let inCode = false;
  for (const line of body.split(/\r?\n/)) {
    if (line.startsWith('```')) inCode = !inCode;
    const heading = inCode ? null : /^#{2,3}\s+(.+?)\s*#*$/.exec(line);
    if (heading) sections.push({ id: slugify(heading[1]!), heading: plainText(heading[1]!), lines: [] });
    else if (!/^#\s/.test(line) || inCode) sections.at(-1)!.lines.push(line);
  }
  return sections
    .map(({ id, heading, lines }) => ({ id, heading, text: plainText(lines.join('\n')) }))
    .filter((section) => section.heading || section.text);
}

/** Parses one page; `path` ends with `{language}/{slug}.md`. */
export function parsePage(path: string, raw: string): TGuidePage | null {
  const match = /([^/]+)\/([^/]+)\.md$/.exec(path);
  if (!match) return null;
  const [, language, slug] = match as unknown as [string, string, string];
  const { fields, body } = parseFrontMatter(raw);
  const heading = /^#\s+(.+?)\s*$/m.exec(body);
  const order = Number(fields.order);
  return {
    slug,
    language,
    title: fields.title ?? (heading ? plainText(heading[1]!) : slug),
    order: Number.isFinite(order) ? order : Number.MAX_SAFE_INTEGER,
    body,
    sections: splitSections(body),
  };
}

/** Every language's pages, in order. */
export function buildGuide(sources: Record<string, string>): TGuide {
  const guide: TGuide = {};
  for (const [path, raw] of Object.entries(sources)) {
    const page = parsePage(path, raw);
    if (page) (guide[page.language] ??= []).push(page);
  }
  for (const pages of Object.values(guide)) {
    pages.sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));
  }
  return guide;
}

/**
 * The pages to show in `language`: the English set, each page replaced by its translation where one
 * exists, so a page not yet translated still appears (in English) rather than vanishing.
 */
export function pagesFor(guide: TGuide, language: string): TGuidePage[] {
  const base = guide[DefaultLanguage] ?? [];
  if (language === DefaultLanguage) return base;
  const translated = new Map((guide[language] ?? []).map((page) => [page.slug, page]));
  const pages = base.map((page) => translated.get(page.slug) ?? page);
  // A page that exists only in this language still shows.
  for (const page of translated.values()) if (!base.some((b) => b.slug === page.slug)) pages.push(page);
  return pages.sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));
}

export type TSearchResult = {
  page: TGuidePage;
  section: TGuideSection;
  snippet: string;
  terms: string[];
};

function snippetAround(text: string, terms: string[], width = 140): string {
  const normal = normalize(text);
  const at = Math.min(...terms.map((term) => normal.indexOf(term)).filter((i) => i >= 0));
  if (!Number.isFinite(at)) return text.length > width ? `${text.slice(0, width).trimEnd()}…` : text;
  let start = Math.max(0, at - 40);
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  let end = Math.min(text.length, start + width);
  if (end < text.length) end = text.lastIndexOf(' ', end) > start ? text.lastIndexOf(' ', end) : end;
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}

/**
 * Finds sections whose page title, heading or text contains every word of `query` (case, and ё/е,
 * ignored). Title matches rank first, then headings, then how often the words occur.
 */
export function searchGuide(pages: TGuidePage[], query: string, limit = 8): TSearchResult[] {
  const terms = normalize(query)
    .split(/\s+/)
    .filter((term) => term.length > 0);
  if (terms.join('').length < 2) return [];
  const scored: (TSearchResult & { score: number })[] = [];
  for (const page of pages) {
    const title = normalize(page.title);
    for (const section of page.sections) {
      const heading = normalize(section.heading);
      const text = normalize(section.text);
      if (!terms.every((term) => title.includes(term) || heading.includes(term) || text.includes(term))) continue;
      let score = 0;
      for (const term of terms) {
        if (title.includes(term)) score += section.id === '' ? 20 : 6;
        if (heading.includes(term)) score += 10;
        score += Math.min(5, text.split(term).length - 1);
      }
      scored.push({ page, section, snippet: snippetAround(section.text, terms), terms, score });
    }
  }
  return scored
    .sort((a, b) => b.score - a.score || a.page.order - b.page.order)
    .slice(0, limit)
    .map(({ score: _score, ...result }) => result);
}

/** The address of a guide page, with an optional `#anchor`. */
export function guidePath(slug: string, hash = ''): string {
  return `${paths.docs()}/${slug}${hash}`;
}
