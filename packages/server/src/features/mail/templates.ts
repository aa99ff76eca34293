import type { TFunction } from 'i18next';
import { Limits, type TAssignableRole, type TLanguage } from '@stageline/shared';
import { translatorFor } from '../../http/i18n';

/** A rendered mail, ready for the outbox or SMTP. */
export type MailContent = { subject: string; text: string; html: string };

/** The purposes a one-time code is e-mailed for; each has its own wording. */
export type CodeMailPurpose = 'verify_email' | 'login' | 'password_change' | 'email_change' | 'two_factor' | 'account';

/** Every mail the product sends, with what each needs. */
export type MailTemplate =
  | { kind: 'code'; purpose: CodeMailPurpose; code: string }
  | { kind: 'password_reset'; link: string; minutes: number }
  | { kind: 'email_change'; link: string; email: string; hours: number }
  | {
      kind: 'password_changed';
      resetLink: string;
      /** The names of the API tokens that still work, and where they are managed (docs/security.md). */
      liveTokens: readonly string[];
      tokensLink: string;
      /** How many API tokens the change revoked. */
      revokedTokens: number;
    }
  | { kind: 'workspace_invite'; workspace: string; inviter: string; role: TAssignableRole; link: string };

function roleName(t: TFunction, role: TAssignableRole): string {
  const names: Record<TAssignableRole, string> = { guest: t('Guest'), member: t('Member'), admin: t('Admin') };
  return names[role];
}

/**
 * The pieces of a mail's body. `item` is one line of a list (a digest's notification) linking to
 * `href`, with an optional quoted `quote`; `footer` is a small line with a link (unsubscribe).
 */
export type Block =
  | { text: string }
  | { code: string }
  | { link: string; label: string }
  | { note: string }
  | { item: string; href: string; quote?: string }
  | { footer: string; href: string; label: string };

function codeMail(t: TFunction, purpose: CodeMailPurpose, code: string): { subject: string; blocks: Block[] } {
  const minutes = Limits.code.ttlMinutes;
  const intro: Record<CodeMailPurpose, string> = {
    verify_email: t('Use this code to confirm your e-mail address:'),
    login: t('Use this code to finish signing in:'),
    password_change: t('Use this code to change your password:'),
    email_change: t('Use this code to change your e-mail address:'),
    two_factor: t('Use this code to turn two-factor authentication on or off:'),
    account: t('Use this code to confirm the change in your account:'),
  };
  const subject =
    purpose === 'verify_email'
      ? t('Your Stageline verification code')
      : purpose === 'login'
        ? t('Your Stageline sign-in code')
        : t('Your Stageline confirmation code');
  return {
    subject,
    blocks: [
      { text: intro[purpose] },
      { code },
      { text: t('The code is valid for {{minutes}} minutes.', { minutes }) },
      { note: t('If you did not request this, ignore this e-mail.') },
    ],
  };
}

/**
 * What a "password changed" mail says of API tokens: how many the change revoked, and the name of
 * each one that still works (a token outlives a password: issue 31), linked to where it is revoked.
 */
function tokenBlocks(t: TFunction, template: Extract<MailTemplate, { kind: 'password_changed' }>): Block[] {
  const blocks: Block[] = [];
  if (template.revokedTokens > 0) {
    blocks.push({
      text: t('API tokens revoked: {{number}}. Scripts that used them need new tokens.', {
        number: template.revokedTokens,
      }),
    });
  }
  if (template.liveTokens.length > 0) {
    blocks.push({ text: t('These API tokens still work. Revoke any you do not recognise:') });
    for (const name of template.liveTokens) blocks.push({ item: name, href: template.tokensLink });
  }
  return blocks;
}

function compose(t: TFunction, template: MailTemplate): { subject: string; blocks: Block[] } {
  switch (template.kind) {
    case 'code':
      return codeMail(t, template.purpose, template.code);
    case 'password_reset':
      return {
        subject: t('Reset your Stageline password'),
        blocks: [
          {
            text: t(
              'Someone asked to reset the password of your Stageline account. Open this link to choose a new one:',
            ),
          },
          { link: template.link, label: t('Choose a new password') },
          { text: t('The link is valid for {{minutes}} minutes and works once.', { minutes: template.minutes }) },
          { note: t('If you did not request this, ignore this e-mail.') },
        ],
      };
    case 'email_change':
      return {
        subject: t('Confirm your new e-mail address'),
        blocks: [
          {
            text: t('Open this link to make {{email}} the e-mail address of your Stageline account:', {
              email: template.email,
            }),
          },
          { link: template.link, label: t('Confirm e-mail') },
          { text: t('The link is valid for {{hours}} hours.', { hours: template.hours }) },
          { note: t('If you did not request this, ignore this e-mail.') },
        ],
      };
    case 'password_changed':
      return {
        subject: t('Your Stageline password was changed'),
        blocks: [
          { text: t('The password of your Stageline account was just changed.') },
          ...tokenBlocks(t, template),
          { text: t('If it was not you, reset your password now:') },
          { link: template.resetLink, label: t('Reset password') },
        ],
      };
    case 'workspace_invite':
      return {
        subject: t('{{inviter}} invited you to {{workspace}} on Stageline', {
          inviter: template.inviter,
          workspace: template.workspace,
        }),
        blocks: [
          {
            text: t('{{inviter}} invited you to join the workspace {{workspace}} as {{role}}.', {
              inviter: template.inviter,
              workspace: template.workspace,
              role: roleName(t, template.role),
            }),
          },
          { link: template.link, label: t('Accept invite') },
          { text: t('Sign in or create an account with this e-mail address to accept or decline it.') },
          { note: t('If you did not expect this, ignore this e-mail.') },
        ],
      };
  }
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function toText(greeting: string, blocks: Block[], signature: string): string {
  const lines = blocks.map((block) => {
    if ('code' in block) return block.code;
    if ('link' in block) return block.link;
    if ('item' in block)
      return [`• ${block.item}`, ...(block.quote ? [`  “${block.quote}”`] : []), `  ${block.href}`].join('\n');
    if ('footer' in block) return `${block.footer} ${block.label}: ${block.href}`;
    return 'note' in block ? block.note : block.text;
  });
  return [greeting, '', ...lines.flatMap((line) => [line, '']), signature].join('\n');
}

function toHtml(language: TLanguage, greeting: string, blocks: Block[], signature: string): string {
  const body = blocks
    .map((block) => {
      if ('code' in block) {
        return `<p style="font-size:28px;font-weight:700;letter-spacing:6px;margin:16px 0">${escapeHtml(block.code)}</p>`;
      }
      if ('link' in block) {
        const href = escapeHtml(block.link);
        return (
          `<p><a href="${href}" style="display:inline-block;background:#228be6;color:#fff;padding:10px 18px;` +
          `border-radius:6px;text-decoration:none">${escapeHtml(block.label)}</a></p>` +
          `<p style="font-size:12px;color:#555;word-break:break-all">${href}</p>`
        );
      }
      if ('note' in block) return `<p style="font-size:12px;color:#777">${escapeHtml(block.note)}</p>`;
      if ('item' in block) {
        const quote = block.quote
          ? `<br><span style="color:#555;font-style:italic">“${escapeHtml(block.quote)}”</span>`
          : '';
        return (
          `<p style="margin:8px 0;padding-left:10px;border-left:3px solid #228be6">` +
          `<a href="${escapeHtml(block.href)}" style="color:#1c7ed6;text-decoration:none">${escapeHtml(block.item)}</a>${quote}</p>`
        );
      }
      if ('footer' in block) {
        return (
          `<p style="font-size:12px;color:#777;margin-top:24px">${escapeHtml(block.footer)} ` +
          `<a href="${escapeHtml(block.href)}" style="color:#777">${escapeHtml(block.label)}</a></p>`
        );
      }
      return `<p>${escapeHtml(block.text)}</p>`;
    })
    .join('\n');
  return (
    `<!doctype html>\n<html lang="${language}"><body style="margin:0;background:#f4f5f7;font-family:Arial,sans-serif;color:#222">` +
    `<div style="max-width:520px;margin:24px auto;background:#fff;border-radius:8px;padding:24px">` +
    `<p>${escapeHtml(greeting)}</p>\n${body}\n<p style="color:#555">${escapeHtml(signature)}</p></div></body></html>`
  );
}

/** Renders a mail in the recipient's language; every interpolated value is escaped in the HTML. */
export function renderMail(template: MailTemplate, recipient: { name: string; language: TLanguage }): MailContent {
  const { subject, blocks } = compose(translatorFor(recipient.language), template);
  return renderBlocks(subject, blocks, recipient);
}

/** Lays out a mail composed elsewhere (digests) like every other: greeting, blocks, signature. */
export function renderBlocks(
  subject: string,
  blocks: Block[],
  recipient: { name: string; language: TLanguage },
): MailContent {
  const t = translatorFor(recipient.language);
  const greeting = t('Hello, {{name}}!', { name: recipient.name });
  const signature = t('The Stageline team');
  return {
    subject,
    text: toText(greeting, blocks, signature),
    html: toHtml(recipient.language, greeting, blocks, signature),
  };
}
