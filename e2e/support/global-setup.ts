import { startServer } from './server';

/** Starts the shared server once for the run; specs read its address from E2E_BASE_URL. */
export default async function globalSetup() {
  const server = await startServer();
  process.env.E2E_BASE_URL = server.url;
  return async () => {
    await server.stop();
  };
}
