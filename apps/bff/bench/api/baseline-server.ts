/**
 * A baseline server for `bench:api`, in a process of its own: answers each measured path with the bytes the API
 * returned for it (captured once), from memory. BENCH_SERVER=bare is node:http alone, the floor any Node server
 * pays; BENCH_SERVER=express is a one-route Express 5 app (ETag and X-Powered-By off, as the API must not send
 * them either), what the framework alone costs. Both answer 404 for any other path.
 *
 * IPC in: { bodies: [path, base64 body][] } once; IPC out: { url }. Exits when the coordinator disconnects.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

const kind = process.env.BENCH_SERVER;
const HEADERS = { 'content-type': 'application/json; charset=utf-8' };

const handlerFor = (bodies: Map<string, Buffer>): http.RequestListener => {
  if (kind === 'bare') {
    return (req, res) => {
      const body = bodies.get(req.url ?? '');
      if (!body) res.writeHead(404).end();
      else res.writeHead(200, { ...HEADERS, 'content-length': body.length }).end(body);
    };
  }
  if (kind === 'express') {
    const app = express();
    app.set('etag', false);
    app.set('x-powered-by', false);
    // One route for every measured path, as the API matches one operation per request.
    app.get('/v1/users/*rest', (req, res) => {
      const body = bodies.get(req.originalUrl);
      if (!body) res.status(404).end();
      else res.set(HEADERS).send(body);
    });
    return app;
  }
  throw new Error(`BENCH_SERVER must be bare or express, got ${kind}`);
};

process.once('message', (message: { bodies: [string, string][] }) => {
  const bodies = new Map(message.bodies.map(([path, body]) => [path, Buffer.from(body, 'base64')]));
  const server = http.createServer(handlerFor(bodies));
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  });
});
process.once('disconnect', () => process.exit(0));
