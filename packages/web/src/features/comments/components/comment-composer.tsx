import { Button, Combobox, Group, Tabs, Text, Textarea, useCombobox } from '@mantine/core';
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ZCommentPatch } from '@stageline/shared';
import { issueOf } from '../../../shared/lib/zod-resolver';
import type { TMember } from '../../workspaces';
import { activeMention, insertMention } from '../lib/mentions';
import { CommentMarkdown } from './comment-markdown';
import classes from './comments.module.css';
import { useRegisterCommands } from '../../../shared/lib/commands';

/** Apple keyboards send with ⌘, others with Ctrl; both work everywhere, the hint names the usual one. */
const isMac = () =>
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/i.test(navigator.platform || navigator.userAgent);

const maxSuggestions = 8;

/**
 * The Markdown editor of a comment: Write and Preview tabs, `@username` completion from the
 * workspace's members, and Ctrl+Enter (⌘+Enter on a Mac) to send.
 */
export function CommentComposer({
  value,
  onChange,
  onSubmit,
  submitting,
  submitLabel,
  members,
  onCancel,
  testId,
  autoFocus = false,
  onPasteFiles,
  attachments,
}: {
  value: string;
  onChange: (text: string) => void;
  onSubmit: () => void;
  submitting: boolean;
  submitLabel: string;
  members: TMember[];
  onCancel?: () => void;
  testId: string;
  autoFocus?: boolean;
  /** Files pasted into the box (a screenshot); without it, a paste is text only. */
  onPasteFiles?: (files: File[]) => void;
  /** What is waiting to go with the comment (the pasted files), shown above the buttons. */
  attachments?: ReactNode;
}) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string | null>('write');
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  /** Where the caret goes once a chosen mention is in the text (set before the next key is read). */
  const pendingCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const element = textarea.current;
    if (pendingCaret.current === null || !element) return;
    element.focus();
    element.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = null;
  }, [value]);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  // The new-comment box (not an edit's) answers the `c` key and the palette's "Write a comment".
  useRegisterCommands(
    `comment-composer:${testId}`,
    onCancel
      ? []
      : [
          {
            id: 'comment.write',
            label: t('Write a comment'),
            shortcut: 'c',
            run: () => {
              setTab('write');
              requestAnimationFrame(() => {
                textarea.current?.focus();
                textarea.current?.scrollIntoView({ block: 'center' });
              });
            },
          },
        ],
  );

  const candidates = mention
    ? members
        .filter((m): m is TMember & { username: string } => m.username !== null)
        .filter((m) => {
          const query = mention.query.toLowerCase();
          return m.username.toLowerCase().startsWith(query) || m.name.toLowerCase().includes(query);
        })
        .slice(0, maxSuggestions)
    : [];
  const open = mention !== null && candidates.length > 0;

  const track = (text: string, caret: number) => {
    const found = activeMention(text, caret);
    setMention(found);
    if (found) {
      combobox.openDropdown();
      // The first suggestion is chosen by Enter or Tab right away.
      setTimeout(() => combobox.selectFirstOption(), 0);
    } else combobox.closeDropdown();
  };

  const choose = (username: string) => {
    const element = textarea.current;
    if (!mention || !element) return;
    const next = insertMention(value, element.selectionStart, mention, username);
    pendingCaret.current = next.caret;
    onChange(next.text);
    setMention(null);
    combobox.closeDropdown();
  };

  // An empty comment is simply not sendable yet; a too long one says so (nothing is cut).
  const error = value.trim() ? issueOf(ZCommentPatch.shape.text, value, t) : null;
  const canSend = value.trim().length > 0 && error === null && !submitting;

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (canSend) onSubmit();
      return;
    }
    if (open) {
      if (event.key === 'ArrowDown') {
        event.preventDefault();
        combobox.selectNextOption();
      } else if (event.key === 'ArrowUp') {
        event.preventDefault();
        combobox.selectPreviousOption();
      } else if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        const index = combobox.getSelectedOptionIndex();
        choose(candidates[index >= 0 ? index : 0]!.username);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        setMention(null);
        combobox.closeDropdown();
      }
      return;
    }
    if (event.key === 'Escape' && onCancel) {
      event.preventDefault();
      onCancel();
    }
  };

  const usernames = members.flatMap((m) => (m.username ? [m.username] : []));

  return (
    <div data-testid={testId}>
      <Tabs value={tab} onChange={setTab} variant="outline" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="write" data-testid={`${testId}-write`}>
            {t('Write')}
          </Tabs.Tab>
          <Tabs.Tab value="preview" data-testid={`${testId}-preview`}>
            {t('Preview')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="write" pt="xs">
          <Combobox store={combobox} onOptionSubmit={choose} position="bottom-start" withinPortal offset={2}>
            <Combobox.Target withKeyboardNavigation={false} withExpandedAttribute>
              <Textarea
                ref={textarea}
                value={value}
                onChange={(event) => {
                  onChange(event.currentTarget.value);
                  track(event.currentTarget.value, event.currentTarget.selectionStart);
                }}
                onKeyDown={onKeyDown}
                onPaste={(event) => {
                  const files = [...event.clipboardData.files];
                  if (!onPasteFiles || files.length === 0) return;
                  event.preventDefault();
                  onPasteFiles(files);
                }}
                // The caret moved (a click, the arrows): complete the @name it now stands after, if any.
                onSelect={(event) => track(event.currentTarget.value, event.currentTarget.selectionStart)}
                onBlur={() => combobox.closeDropdown()}
                placeholder={t('Write a comment. Markdown works; @ mentions a member.')}
                aria-label={t('Comment')}
                autosize
                minRows={3}
                maxRows={14}
                error={error}
                autoFocus={autoFocus}
                data-testid={`${testId}-input`}
              />
            </Combobox.Target>
            <Combobox.Dropdown hidden={!open} data-testid={`${testId}-mentions`}>
              <Combobox.Options>
                {candidates.map((member) => (
                  <Combobox.Option
                    value={member.username}
                    key={member.id}
                    data-testid="mention-option"
                    onMouseDown={(event) => event.preventDefault()}
                  >
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm" fw={500}>
                        @{member.username}
                      </Text>
                      <Text size="xs" c="dimmed" truncate>
                        {member.name}
                      </Text>
                    </Group>
                  </Combobox.Option>
                ))}
              </Combobox.Options>
            </Combobox.Dropdown>
          </Combobox>
        </Tabs.Panel>
        <Tabs.Panel value="preview" pt="xs">
          <div className={classes.preview} data-testid={`${testId}-preview-body`}>
            {value.trim() ? (
              <CommentMarkdown text={value} usernames={usernames} />
            ) : (
              <Text size="sm" c="dimmed">
                {t('Nothing to preview')}
              </Text>
            )}
          </div>
        </Tabs.Panel>
      </Tabs>
      {attachments}
      <Group justify="space-between" mt="xs" wrap="nowrap">
        <Text size="xs" c="dimmed">
          {isMac() ? t('⌘+Enter to send') : t('Ctrl+Enter to send')}
        </Text>
        <Group gap="xs" wrap="nowrap">
          {onCancel ? (
            <Button variant="default" size="xs" onClick={onCancel} data-testid={`${testId}-cancel`}>
              {t('Cancel')}
            </Button>
          ) : null}
          <Button
            size="xs"
            onClick={onSubmit}
            disabled={!canSend}
            loading={submitting}
            data-testid={`${testId}-submit`}
          >
            {submitLabel}
          </Button>
        </Group>
      </Group>
    </div>
  );
}
