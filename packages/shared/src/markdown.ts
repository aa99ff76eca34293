import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

type TNode = { type: string; value?: string; alt?: string | null; children?: TNode[] };

const parser = unified().use(remarkParse).use(remarkGfm);

/** Node kinds whose text stands apart from the next block's. */
const blocks = new Set(['paragraph', 'heading', 'listItem', 'blockquote', 'code', 'tableCell', 'tableRow', 'table']);

function textOf(node: TNode): string {
  if (node.type === 'text' || node.type === 'inlineCode' || node.type === 'code') return node.value ?? '';
  if (node.type === 'image') return node.alt ?? '';
  if (node.type === 'break') return ' ';
  if (node.type === 'html') return node.value ?? '';
  const inner = (node.children ?? []).map(textOf).join('');
  return blocks.has(node.type) ? ` ${inner} ` : inner;
}

/**
 * The words of a Markdown text without its syntax, on one line: for excerpts (notifications, list
 * cards, browser pop-ups) where `**animation**` should read "animation" (docs/decisions.md, entry
 * 55). HTML stays as written, as when rendered.
 */
export function markdownToPlainText(markdown: string): string {
  return textOf(parser.parse(markdown)).replace(/\s+/g, ' ').trim();
}
