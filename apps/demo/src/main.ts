/** Runs the Maple Bank demo on its own: `pnpm --filter @credit/demo start` (the API must be running). */
import { startDemoServer } from './demo-server.ts';

const required = (name: string) => {
  const value = process.env[name];
  if (!value) {
    console.error(
      `${name} is not set. The demo needs a sandbox client of the API: DEMO_CLIENT_ID and DEMO_CLIENT_SECRET ` +
        '(the API’s start command prints Maple Bank’s as CLIENT_ID and CLIENT_SECRET).',
    );
    process.exit(1);
  }
  return value;
};

const port = Number(process.env.DEMO_PORT ?? 3001);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`DEMO_PORT must be a port number, not ${JSON.stringify(process.env.DEMO_PORT)}`);
  process.exit(1);
}

try {
  const demo = await startDemoServer({
    // The page must live on another origin than the API (127.0.0.1:3000), as a partner's site does.
    host: process.env.DEMO_HOST ?? 'localhost',
    port,
    apiUrl: process.env.API_URL ?? 'http://127.0.0.1:3000',
    publicApiUrl: process.env.PUBLIC_API_URL,
    clientId: required('DEMO_CLIENT_ID'),
    clientSecret: required('DEMO_CLIENT_SECRET'),
    logger: console,
  });
  const shutdown = () => demo.close().then(() => process.exit(0));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
} catch (error) {
  console.error(`The demo could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
