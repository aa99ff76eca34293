import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A mail as the SMTP server received it, decoded enough to read codes and links. */
export type ReceivedMail = { to: string[]; subject: string; text: string; html: string; raw: string };

/** Parses a raw message with mailparser, keeping what tests read: subject, text and HTML. */
export async function parseMail(raw: Buffer, to: string[]): Promise<ReceivedMail> {
  const parsed = await simpleParser(raw);
  return {
    to,
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
    raw: raw.toString('utf8'),
  };
}

/**
 * A real SMTP server on 127.0.0.1 (a free port) that keeps every mail it receives, for tests that
 * read the codes and links the app e-mails.
 */
export async function startMailbox() {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        parseMail(Buffer.concat(chunks), to).then(
          (mail) => {
            mails.push(mail);
            for (const wake of waiters) wake();
            callback();
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  /** Waits for the next mail to `to` that arrives after `since` mails (default: any not yet taken). */
  async function waitFor(to: string, match: (mail: ReceivedMail) => boolean = () => true, timeoutMs = 5000) {
    const address = to.toLowerCase();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = mails.findIndex((mail) => mail.to.includes(address) && match(mail));
      if (index >= 0) return mails.splice(index, 1)[0]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        waiters.add(wake);
      });
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor,
    /** The 6-digit code of the next mail to `to`. */
    async code(to: string): Promise<string> {
      const mail = await waitFor(to);
      const code = /^\d{6}$/m.exec(mail.text)?.[0];
      if (!code) throw new Error(`No code in the mail to ${to}: ${mail.text}`);
      return code;
    },
    /** Whether no mail to `to` is waiting (after giving deliveries in flight a moment). */
    async none(to: string, settleMs = 150): Promise<boolean> {
      await new Promise((resolve) => setTimeout(resolve, settleMs));
      return !mails.some((mail) => mail.to.includes(to.toLowerCase()));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Mailbox = Awaited<ReturnType<typeof startMailbox>>;
