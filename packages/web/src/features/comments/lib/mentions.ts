/**
 * `@username` in the composer and in rendered comments. The pattern matches what the server reads
 * (`mentionedUsernames` in packages/shared): not inside a word or an e-mail address.
 */

/** The `@…` being typed just before the caret: where it starts and the letters typed so far. */
export function activeMention(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|[^\p{L}\p{N}_@.-])@([\p{L}\p{N}_.-]*)$/u.exec(text.slice(0, caret));
  if (!match) return null;
  const query = match[2]!;
  return { start: caret - query.length - 1, query };
}

/** The text with the mention being typed replaced by `@username `, and where the caret goes. */
export function insertMention(
  text: string,
  caret: number,
  mention: { start: number },
  username: string,
): { text: string; caret: number } {
  const inserted = `@${username} `;
  const after = text
    .slice(caret)
    .replace(/^[\p{L}\p{N}_.-]*/u, '')
    .replace(/^ /, '');
  return { text: text.slice(0, mention.start) + inserted + after, caret: mention.start + inserted.length };
}

type TMdNode = { type: string; value?: string; children?: TMdNode[]; data?: Record<string, unknown> };

const mentionPattern = /(^|[^\p{L}\p{N}_@.-])@([\p{L}\p{N}_.-]+)/gu;

/** Splits one text node into text and mention nodes for the names in `known` (lowercase usernames). */
function splitText(value: string, known: Set<string>, className: string): TMdNode[] {
  const out: TMdNode[] = [];
  let last = 0;
  for (const match of value.matchAll(mentionPattern)) {
    const raw = match[2]!;
    const name = raw.replace(/[.-]+$/, '');
    if (!known.has(name.toLowerCase())) continue;
    const start = match.index + match[1]!.length;
    if (start > last) out.push({ type: 'text', value: value.slice(last, start) });
    out.push({
      type: 'mention',
      data: { hName: 'span', hProperties: { className: [className], 'data-mention': name.toLowerCase() } },
      children: [{ type: 'text', value: `@${name}` }],
    });
    last = start + 1 + name.length;
  }
  if (last === 0) return [{ type: 'text', value }];
  if (last < value.length) out.push({ type: 'text', value: value.slice(last) });
  return out;
}

/**
 * A remark plugin that turns `@username` of known members into `<span class=…>` elements
 * (outside code and links), so mentions stand out without any raw HTML.
 */
export function remarkMentions(options: { usernames: string[]; className: string }) {
  const known = new Set(options.usernames.map((name) => name.toLowerCase()));
  const walk = (node: TMdNode) => {
    if (!node.children || ['link', 'linkReference', 'mention'].includes(node.type)) return;
    node.children = node.children.flatMap((child) =>
      child.type === 'text' && child.value ? splitText(child.value, known, options.className) : [child],
    );
    node.children.forEach(walk);
  };
  return () => (tree: TMdNode) => {
    if (known.size) walk(tree);
  };
}
