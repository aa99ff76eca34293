import { UserMarkdown } from '../../../shared/ui/user-markdown';
import { remarkMentions } from '../lib/mentions';
import classes from './comments.module.css';

/** A comment's Markdown (`UserMarkdown`), with `@username` of the given members standing out. */
export function CommentMarkdown({ text, usernames }: { text: string; usernames: string[] }) {
  return (
    <UserMarkdown
      text={text}
      remarkPlugins={[remarkMentions({ usernames, className: classes.mention! })]}
      testId="comment-markdown"
    />
  );
}
