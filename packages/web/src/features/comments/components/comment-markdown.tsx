import { Anchor, Code, Typography } from '@mantine/core';
import Markdown, { type Components } from 'react-markdown';
import { Link } from 'react-router';
import remarkGfm from 'remark-gfm';
import { remarkMentions } from '../lib/mentions';
import classes from './comments.module.css';

const components: Components = {
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
 * A comment's Markdown (GitHub's flavour) as text only: HTML inside it is shown as written, never
 * parsed (no rehype-raw), and react-markdown's default URL filter empties `javascript:` and the
 * like. `@username` of the given members stands out.
 */
export function CommentMarkdown({ text, usernames }: { text: string; usernames: string[] }) {
  return (
    <Typography className={classes.markdown} data-testid="comment-markdown">
      <Markdown
        remarkPlugins={[remarkGfm, remarkMentions({ usernames, className: classes.mention! })]}
        components={components}
      >
        {text}
      </Markdown>
    </Typography>
  );
}
