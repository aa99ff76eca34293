import type { FastifyBaseLogger } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Config } from '../../config';
import { schema, type Db } from '../../db';
import type { MailContent } from './templates';

/** `headers` are extra SMTP headers (a digest's `List-Unsubscribe`); the outbox does not keep them. */
export type OutgoingMail = MailContent & { to: string; headers?: Record<string, string> };

/** Sends mail: every mail is recorded in `mail_outbox`; with SMTP it is also delivered, in the background. */
export type Mailer = {
  /** Whether mail only lands in the dev outbox (no `SMTP_URL`). */
  readonly devOutbox: boolean;
  /**
   * Keeps the mail in the outbox and delivers it in the background; with `wait`, resolves once the
   * SMTP server accepted it and throws when it refused (jobs that must know, such as digests).
   */
  send(mail: OutgoingMail, options?: { wait?: boolean }): Promise<void>;
  /** Waits for deliveries in flight and closes the SMTP connection. */
  close(): Promise<void>;
};

/**
 * The mailer of the app. Delivery does not hold up the request (a slow SMTP server must not slow
 * sign-up, nor reveal through timing whether a password-reset e-mail exists); the outcome is written
 * to the outbox row. Mails carry codes and link tokens, so neither the log nor, with SMTP, the outbox
 * row keeps their text (docs/security.md); without SMTP the text stays in the outbox, which only
 * this machine can read (`/dev/outbox`).
 */
export function createMailer({ config, db, log }: { config: Config; db: Db; log: FastifyBaseLogger }): Mailer {
  const smtpUrl = config.smtpUrl;
  // nodemailer is loaded with the first mail, not at every start (docs/decisions.md, 166).
  let transport: Promise<Transporter> | undefined;
  const transportOf = (url: string) =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url)));
  const pending = new Set<Promise<void>>();

  async function deliver(id: number, mail: OutgoingMail, url: string, rethrow: boolean): Promise<void> {
    try {
      const smtp = await transportOf(url);
      await smtp.sendMail({
        from: config.mailFrom,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
      });
      await db.update(schema.mailOutbox).set({ sentAt: new Date() }).where(eq(schema.mailOutbox.id, id));
    } catch (error) {
      log.error({ err: error, mailId: id }, 'mail delivery failed');
      await db
        .update(schema.mailOutbox)
        .set({ error: error instanceof Error ? error.message : String(error) })
        .where(eq(schema.mailOutbox.id, id))
        .catch(() => undefined);
      if (rethrow) throw error;
    }
  }

  return {
    devOutbox: !smtpUrl,
    async send(mail, options) {
      const body = smtpUrl ? { text: '', html: '' } : { text: mail.text, html: mail.html };
      const [row] = await db
        .insert(schema.mailOutbox)
        .values({ to: mail.to, subject: mail.subject, ...body })
        .returning({ id: schema.mailOutbox.id });
      if (!smtpUrl) {
        log.info(
          { mailId: row!.id, to: mail.to, subject: mail.subject },
          'mail stored in the dev outbox: read it at /dev/outbox on this machine',
        );
        return;
      }
      const delivery = deliver(row!.id, mail, smtpUrl, Boolean(options?.wait));
      pending.add(delivery);
      void delivery.catch(() => undefined).finally(() => pending.delete(delivery));
      if (options?.wait) await delivery;
    },
    async close() {
      await Promise.allSettled([...pending]);
      (await transport?.catch(() => undefined))?.close();
    },
  };
}
