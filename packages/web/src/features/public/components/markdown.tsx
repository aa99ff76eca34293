import { Anchor, Code, Title, Typography } from '@mantine/core';
import type { ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { Link } from 'react-router';
import remarkGfm from 'remark-gfm';
import { guidePath, slugify } from '../lib/guide';
import classes from './markdown.module.css';

type TNode = { type: string; value?: string; children?: TNode[] };

/** The text inside a hast node, for heading anchors. */
function nodeText(node: TNode | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(nodeText).join('');
}

/**
 * Where a link in the guide leads: another page (`tasks.md#anchor` → /docs/tasks#anchor, so the
 * files link to each other on a code host too), a route of the app, the API (a full page load: the
 * server, not the app, answers /api/…), or another site (a new tab).
 */
function MarkdownLink({ href = '', children }: { href?: string; children?: ReactNode }) {
  const page = /^(?:\.\/)?([\w-]+)\.md(#.*)?$/.exec(href);
  if (page) {
    return (
      <Anchor component={Link} to={guidePath(page[1]!, page[2])}>
        {children}
      </Anchor>
    );
  }
  if (href.startsWith('/') && !href.startsWith('/api/')) {
    return (
      <Anchor component={Link} to={href}>
        {children}
      </Anchor>
    );
  }
  const external = /^https?:\/\//.test(href);
  return (
    <Anchor href={href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
      {children}
    </Anchor>
  );
}

function heading(order: 2 | 3 | 4) {
  return function Heading({ node, children }: { node?: unknown; children?: ReactNode }) {
    const id = slugify(nodeText(node as TNode));
    return (
      <Title order={order} id={id} className={classes.heading}>
        {children}
      </Title>
    );
  };
}

/**
 * Renders trusted-format Markdown from the repository (the guide, changelog entries) with GitHub's
 * extensions. HTML inside the Markdown is never rendered: react-markdown drops it without rehype-raw,
 * and its default URL filter removes `javascript:` and the like.
 */
export function MarkdownView({
  children,
  resolveImage,
  inline = false,
}: {
  children: string;
  resolveImage?: (src: string) => string | undefined;
  inline?: boolean;
}) {
  const components: Components = {
    a: ({ href, children: text }) => <MarkdownLink href={href}>{text}</MarkdownLink>,
    h1: ({ children: text }) => (
      <Title order={1} className={classes.heading}>
        {text}
      </Title>
    ),
    h2: heading(2),
    h3: heading(3),
    h4: heading(4),
    code: ({ className, children: text }) =>
      className ? <code className={className}>{text}</code> : <Code>{text}</Code>,
    table: ({ children: rows }) => (
      <div className={classes.tableScroll}>
        <table>{rows}</table>
      </div>
    ),
    img: ({ src, alt }) => {
      const url = typeof src === 'string' ? (resolveImage?.(src) ?? src) : undefined;
      return url ? <img src={url} alt={alt ?? ''} className={classes.image} loading="lazy" /> : null;
    },
    ...(inline ? { p: ({ children: text }) => <>{text}</> } : {}),
  };
  const markdown = (
    <Markdown remarkPlugins={[remarkGfm]} components={components}>
      {children}
    </Markdown>
  );
  return inline ? markdown : <Typography className={classes.root}>{markdown}</Typography>;
}
