import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { schema, Db } from '../../db';
import type { Config } from '../../config';
import { isLanguage, type TLanguage } from '@stageline/shared';
import { renderMail, type Mailer, type MailTemplate } from '../mail';
import type { SessionCache } from './session-cache';
import type { TokenKeys } from './tokens';

/**
 * What the account services need: the database, token keys, the mailer, the configuration and this
 * app instance's cache of live sessions (which ending a session updates).
 */
export type AuthContext = {
  config: Config;
  db: Db;
  keys: TokenKeys;
  mailer: Mailer;
  log: FastifyBaseLogger;
  sessionCache: SessionCache;
};

export type UserRow = typeof schema.users.$inferSelect;

/** Where a request came from, recorded on the session it opens. */
export type ClientInfo = { userAgent: string | null; ip: string | null };

export function clientInfo(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { userAgent: agent ? agent.slice(0, 512) : null, ip: request.ip ? request.ip.slice(0, 64) : null };
}

/** The origin links in e-mails point at: PUBLIC_URL, else the origin the request was made to. */
export function publicOrigin(config: Config, request: FastifyRequest): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}

/** Renders a template in the user's language and sends it to `to` (the user's address by default). */
export async function mailUser(
  ctx: AuthContext,
  user: UserRow,
  template: MailTemplate,
  to = user.email,
): Promise<void> {
  const language: TLanguage = isLanguage(user.language) ? user.language : 'en';
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
  await ctx.mailer.send({ to, ...renderMail(template, { name, language }) });
}
