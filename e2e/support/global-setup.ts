import { startMailRelay } from './mail-relay';
import { startServer } from './server';

/**
 * Starts, once per run, a real SMTP server (with an HTTP door for the specs) and the app server
 * that sends mail through it; specs read their addresses from E2E_BASE_URL and E2E_MAIL_URL.
 */
export default async function globalSetup() {
  const relay = await startMailRelay();
  // Behind a trusted proxy, as in production: registerUser() signs its many test users up from
  // addresses of their own, so the per-address sign-up limit stays real for the browser journeys.
  // Webhooks deliver to receivers the specs start on 127.0.0.1, which production refuses.
  const server = await startServer({ SMTP_URL: relay.smtpUrl, TRUST_PROXY: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true' });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_MAIL_URL = relay.httpUrl;
  process.env.E2E_SMTP_URL = relay.smtpUrl;
  return async () => {
    await server.stop();
    await relay.stop();
  };
}
