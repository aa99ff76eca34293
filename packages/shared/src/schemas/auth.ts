import { z } from 'zod';
import { Languages } from '../languages';
import { isTimeZone } from '../time-zones';
import { Limits } from '../limits';

/**
 * The contract of accounts and sign-in (docs/rules.md §Accounts, §API): one set of schemas validates
 * the forms in the browser and the requests on the server, and documents both in OpenAPI.
 */

export const ZUsername = z
  .string()
  .trim()
  // `abort`: an empty or short name gets one message, not the pattern's too.
  .min(Limits.username.min, { abort: true })
  .max(Limits.username.max)
  .regex(/^[\p{L}\p{N}_.-]+$/u, 'Letters, digits and . _ - only.');
export const ZEmail = z.string().trim().toLowerCase().min(1).max(Limits.email.max).pipe(z.email());
export const ZPassword = z
  .string()
  .min(1, { abort: true })
  .min(Limits.password.min, 'Password is too short')
  .max(Limits.password.max);
export const ZCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter 6-digits code');
export const ZPersonName = z.string().trim().max(Limits.personName.max);
export const ZLanguage = z.enum(Languages);
export const ZEmailFrequency = z.enum(['hourly', 'daily', 'weekly', 'never']);
/** The quickstart (docs/rules.md §Web): offered while pending, resumable when skipped, gone once done. */
export const ZOnboarding = z.enum(['pending', 'skipped', 'done']);
/** An IANA time zone name (`Europe/Berlin`): due dates, "Today" and digests follow it. */
export const ZTimeZone = z.string().trim().refine(isTimeZone, 'Choose a time zone from the list.');
export type TOnboarding = z.infer<typeof ZOnboarding>;
export type TEmailFrequency = z.infer<typeof ZEmailFrequency>;

export const ZTokens = z.object({ access: z.string(), refresh: z.string() });
export type TTokenPair = z.infer<typeof ZTokens>;
export const ZEphemeral = z.object({ ephemeral_token: z.string() });

/** POST users/register/ → 201 `ZEphemeral`; a code is e-mailed. */
export const ZRegister = z.object({
  username: ZUsername,
  email: ZEmail,
  password: ZPassword,
  first_name: ZPersonName.optional(),
  last_name: ZPersonName.optional(),
  /** The browser's time zone, detected by the sign-up form. */
  time_zone: ZTimeZone.optional(),
  language: ZLanguage.optional(),
});
export type TRegister = z.infer<typeof ZRegister>;

/**
 * POST users/login/ → `ZTokens`, or `ZEphemeral` when 2FA is on (a code is e-mailed) or when the
 * account had too many failed sign-ins (a code is e-mailed if the password was right; `detail` says so).
 */
export const ZLogin = z.object({
  username: z.string().trim().min(1).max(Limits.email.max),
  password: z.string().min(1).max(Limits.password.max),
});
export type TLogin = z.infer<typeof ZLogin>;
export const ZLoginResult = z.union([ZTokens, ZEphemeral.extend({ detail: z.string().optional() })]);

/** POST otp/check/ → `ZTokens`. */
export const ZOtpCheck = z.object({ code: ZCode, ephemeral_token: z.string().min(1) });
/** POST otp/send/: with an ephemeral token (sign-up, 2FA login), or signed in with a purpose. */
export const ZOtpPurpose = z.enum(['password_change', 'email_change', 'two_factor']);
export const ZOtpSend = z.object({
  ephemeral_token: z.string().min(1).optional(),
  purpose: ZOtpPurpose.optional(),
});
export const ZDetail = z.object({ detail: z.string() });
export const ZMessage = z.object({ message: z.string() });

export const ZRefresh = z.object({ refresh: z.string().min(1) });

export const ZPasswordResetRequest = z.object({ email: ZEmail });
export const ZPasswordResetValidate = z.object({ token: z.string().min(1), email: ZEmail });
export const ZPasswordResetConfirm = z.object({ token: z.string().min(1), email: ZEmail, password: ZPassword });

/** GET users/me/ (docs/rules.md §API) plus the profile's settings. */
export const ZMe = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  language: ZLanguage,
  two_factor: z.boolean(),
  recent_workspace: z.number().int().nullable(),
  avatar: z.string().nullable(),
  workspaces: z.array(z.number().int()),
  has_password: z.boolean(),
  oauth_accounts: z.array(z.object({ provider: z.string(), email: z.string().nullable() })),
  notify_browser: z.boolean(),
  email_frequency: ZEmailFrequency,
  onboarding: ZOnboarding,
  /** Null until the browser told it (at sign-up or the first visit); treated as UTC meanwhile. */
  time_zone: z.string().nullable(),
});
export type TMe = z.infer<typeof ZMe>;

/** PATCH users/{id}/: any subset of the editable profile fields. */
export const ZUserPatch = z
  .object({
    username: ZUsername,
    first_name: ZPersonName,
    last_name: ZPersonName,
    language: ZLanguage,
    recent_workspace: z.number().int().positive().nullable(),
    notify_browser: z.boolean(),
    email_frequency: ZEmailFrequency,
    onboarding: ZOnboarding,
    time_zone: ZTimeZone,
  })
  .partial();
export type TUserPatch = z.infer<typeof ZUserPatch>;

/**
 * POST users/me/password/: a code from otp/send/ (purpose password_change) and the new password;
 * `revoke_api_tokens` also revokes every personal API token (docs/security.md, "API tokens").
 */
export const ZPasswordChange = z.object({
  code: ZCode,
  password: ZPassword,
  revoke_api_tokens: z.boolean().optional(),
});
export type TPasswordChange = z.infer<typeof ZPasswordChange>;
/** POST users/me/email/: asks to change the e-mail; a confirmation link goes to the new address. */
export const ZEmailChange = z.object({ email: ZEmail, code: ZCode });
/** POST users/me/email/confirm/: the token of the link that `/change_email` opens. */
export const ZEmailConfirm = z.object({ token: z.string().min(1) });
/**
 * Its answer: `changed` the first time; `already_confirmed` when the link was used before and the
 * account already has that address (a second open of the link is no failure).
 */
export const ZEmailConfirmed = z.object({
  detail: z.string(),
  status: z.enum(['changed', 'already_confirmed']),
});
export type TEmailConfirmed = z.infer<typeof ZEmailConfirmed>;
/** POST users/me/two_factor/: turns 2FA on or off, confirmed by a code. */
export const ZTwoFactor = z.object({ enabled: z.boolean(), code: ZCode });

/** GET users/me/sessions/: the signed-in devices; DELETE users/me/sessions/{id}/ revokes one. */
export const ZSession = z.object({
  id: z.number().int(),
  created_at: z.string(),
  last_used_at: z.string(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  current: z.boolean(),
});
export type TSession = z.infer<typeof ZSession>;

/** GET oauth/providers/: the configured sign-in providers, for the login buttons. */
export const ZOAuthProvider = z.object({ id: z.string(), name: z.string() });
export type TOAuthProvider = z.infer<typeof ZOAuthProvider>;

/** A provider id in a path: what the server configures (`github`, `google`, `gitlab`, `oidc`). */
export const ZOAuthProviderParams = z.object({ provider: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/) });

/** GET oauth/login/{provider}/start/?next=: where to go after signing in (a path of this site). */
export const ZOAuthStartQuery = z.object({ next: z.string().max(2048).optional() });

/** GET oauth/login/{provider}/?code=&state=: the provider's answer, as the /oauth screen got it. */
export const ZOAuthCallbackQuery = z.object({
  code: z.string().min(1).max(4096),
  state: z.string().min(1).max(512),
});

/** POST oauth/link/{provider}/: where to send the browser to link an account. */
export const ZOAuthLinkStart = z.object({ url: z.string() });

const next = z.string().optional().describe('The path asked for when the sign-in started');
/**
 * GET oauth/login/{provider}/: signed in (tokens; `linked` when an existing account was just linked
 * by its verified e-mail), a 2FA step (`ephemeral_token`, a code is e-mailed), or, for a link
 * started from the profile, `linked` with no tokens.
 */
export const ZOAuthLoginResult = z.union([
  ZTokens.extend({ next, linked: z.boolean().optional() }),
  ZEphemeral.extend({ next }),
  z.object({ linked: z.literal(true), provider: z.string(), next }),
]);
export type TOAuthLoginResult = z.infer<typeof ZOAuthLoginResult>;

/** 403 of users/login/ for an unverified e-mail: a new code is e-mailed, `ephemeral_token` checks it. */
export const ZEmailNotVerified = z.object({
  detail: z.string(),
  code: z.literal('email_not_verified'),
  ephemeral_token: z.string(),
});

/** POST users/me/avatar/ (multipart field `file`): the saved avatar's URL. */
export const ZAvatarSaved = z.object({ message: z.string(), avatar: z.string() });

/** GET dev/outbox/: the latest mails, served only when no SMTP server is configured. */
export const ZOutboxMail = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  created_at: z.string(),
});
export type TOutboxMail = z.infer<typeof ZOutboxMail>;
