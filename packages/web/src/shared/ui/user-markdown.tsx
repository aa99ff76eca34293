import { Anchor, Code, Typography } from '@mantine/core';
import Markdown, { type Components, type Options } from 'react-markdown';
import { Link } from 'react-router';
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
  img: ({ src, alt }) =>
    typeof src === 'string' && src ? (
      <img src={src} alt={alt ?? ''} loading="lazy" referrerPolicy="no-referrer" />
    ) : null,
};

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
