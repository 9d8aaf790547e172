import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const embedDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../embed');

/**
 * Serves the real built loader at `/embed.js` and an empty page at `/widget`, on another origin than the
 * test page (127.0.0.1 vs localhost), so the component loads and drives the very script partners get.
 */
export const startEmbedServer = async () => {
  const builtLoader = path.join(embedDir, 'dist/embed.js');
  if (!existsSync(builtLoader)) execFileSync(process.execPath, ['build.mjs'], { cwd: embedDir });
  const loader = readFileSync(builtLoader);
  let loaderRequests = 0;
  const server = createServer((req, res) => {
    if (req.url === '/embed.js') {
      loaderRequests += 1;
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(loader);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>frame</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    embedUrl: `http://127.0.0.1:${port}/embed.js`,
    loaderRequests: () => loaderRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
