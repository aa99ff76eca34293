import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMailbox, type Mailbox } from '../../packages/server/test/mailbox';

/**
 * A real SMTP server for the app under test, and a small HTTP door to it: Playwright workers run
 * in other processes, so they ask `GET /next?to=…&match=…` for the next mail to an address.
 */
export async function startMailRelay(): Promise<{ smtpUrl: string; httpUrl: string; stop: () => Promise<void> }> {
  const mailbox: Mailbox = await startMailbox();
  const http: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://relay');
    const to = url.searchParams.get('to');
    if (url.pathname !== '/next' || !to) {
      response.writeHead(404).end();
      return;
    }
    const pattern = url.searchParams.get('match');
    const match = pattern ? new RegExp(pattern) : undefined;
    mailbox
      .waitFor(to, match ? (mail) => match.test(mail.subject) || match.test(mail.text) : undefined, 15_000)
      .then((mail) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ subject: mail.subject, text: mail.text, html: mail.html }));
      })
      .catch((error: unknown) => {
        response.writeHead(504, { 'content-type': 'text/plain' });
        response.end(error instanceof Error ? error.message : String(error));
      });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    smtpUrl: mailbox.url,
    httpUrl: `http://127.0.0.1:${port}`,
    stop: async () => {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await mailbox.close();
    },
  };
}
