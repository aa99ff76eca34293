import { Anchor, Code, Typography } from '@mantine/core';
import Markdown, { type Components, type Options } from 'react-markdown';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { IconPhoto } from '@tabler/icons-react';
import remarkGfm from 'remark-gfm';
import classes from './user-markdown.module.css';

/** How the pieces of people's Markdown are drawn (comments, descriptions). */
export const userMarkdownComponents: Components = {
  a: ({ href = '', children }) => {
    // A path of the app stays in the app; anything else opens apart from it.
    if (href.startsWith('/') && !href.startsWith('//') && !href.startsWith('/api/'))
      return (
        <Anchor component={Link} to={href}>
          {children}
        </Anchor>
      );
    return (
      <Anchor href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </Anchor>
    );
  },
  code: ({ className, children }) =>
    className ? <code className={className}>{children}</code> : <Code>{children}</Code>,
  img: ({ src, alt }) => {
    if (typeof src !== 'string' || !src) return null;
    if (isOwnImage(src)) return <img src={src} alt={alt ?? ''} loading="lazy" referrerPolicy="no-referrer" />;
    return <ExternalImage src={src} alt={alt ?? ''} />;
  },
};

/**
 * Whether an image's address is of this app (a path such as an attachment's `/api/attachments/…`,
 * or this origin): only those may load, as the CSP's `img-src 'self'` says (decision 192).
 */
export function isOwnImage(src: string, origin = window.location.origin): boolean {
  if (src.startsWith('//')) return false;
  if (src.startsWith('/')) return true;
  try {
    return new URL(src).origin === origin;
  } catch {
    return false;
  }
}

/** An image from elsewhere: a link that says it is an image and where it points, instead of a broken icon. */
function ExternalImage({ src, alt }: { src: string; alt: string }) {
  const { t } = useTranslation();
  let host = src;
  try {
    host = new URL(src).host || src;
  } catch {
    // Not a URL we can read: show it as written.
  }
  return (
    <Anchor
      href={src}
      target="_blank"
      rel="noopener noreferrer nofollow"
      title={src}
      data-testid="markdown-external-image"
      style={{ overflowWrap: 'anywhere' }}
    >
      <IconPhoto size={14} style={{ verticalAlign: 'text-bottom', marginRight: 4 }} aria-hidden />
      {alt ? t('Image “{{name}}” at {{host}}', { name: alt, host }) : t('Image at {{host}}', { host })}
    </Anchor>
  );
}

/**
 * Markdown a person wrote (GitHub's flavour), as text only: HTML inside it is shown as written,
 * never parsed (no rehype-raw), and react-markdown's default URL filter empties `javascript:` and
 * the like. Comments add their mention plugin; descriptions use it as is (docs/decisions.md, entry 62).
 */
export function UserMarkdown({
  text,
  remarkPlugins = [],
  testId,
}: {
  text: string;
  remarkPlugins?: Options['remarkPlugins'];
  testId?: string;
}) {
  return (
    <Typography className={classes.markdown} data-testid={testId}>
      <Markdown remarkPlugins={[remarkGfm, ...(remarkPlugins ?? [])]} components={userMarkdownComponents}>
        {text}
      </Markdown>
    </Typography>
  );
}
