import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frontDoor, frontDoorMatch } from '../src/http/front-door.ts';
import { type ContractRoute, OperationTable } from '../src/http/operation-table.ts';

/**
 * The front door (http/front-door.ts): a request naming a contract operation runs the API's handler chain without
 * Express's router, with everything Express gives a request first; anything else goes to Express. The app-level
 * rules (case, trailing slash, HEAD, OPTIONS) are in dispatch.test.ts, through the real app.
 */
const route: ContractRoute = {
  op: { operationId: 'getThing', method: 'get', path: '/v1/things/{thingId}', rateLimit: 'userOps', auth: { kind: 'none' } },
  serve: async () => {},
} as unknown as ContractRoute;

let url: string;
let server: http.Server;
const errors: unknown[] = [];

beforeAll(async () => {
  const app = express();
  app.set('trust proxy', 'loopback');
  app.use((req, res) => {
    res.json({ door: 'express', path: req.path });
  });
  const answer: RequestHandler = async (req, res) => {
    if (req.params.thingId === 'throws') throw new Error('sync-looking throw in an async handler');
    if (req.params.thingId === 'unanswerable') throw new Error('the error answer fails too');
    if (req.params.thingId === 'half') {
      res.write('{"partial":');
      throw new Error('after the answer started');
    }
    res.json({
      door: 'operation',
      thingId: req.params.thingId,
      // What handlers read through Express's prototypes and the router's fields.
      ip: req.ip,
      header: req.get('x-probe') ?? null,
      query: req.query,
      originalUrl: req.originalUrl,
      baseUrl: req.baseUrl,
    });
  };
  const params: RequestHandler = (req, _res, next) => {
    const match = frontDoorMatch(req);
    req.params = match && 'params' in match ? match.params : {};
    next();
  };
  const listener = frontDoor({
    app,
    operations: new OperationTable([route]),
    chain: [params, answer],
    onError: (error: unknown, _req: Request, res: Response) => {
      errors.push(error);
      if ((error as Error).message === 'the error answer fails too') throw new Error('error handler failed');
      if (res.headersSent) res.socket?.destroy();
      else res.status(500).json({ door: 'error' });
    },
    onUnanswered: (_req, res) => res.status(404).end(),
  });
  server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${url}${path}`, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** A request line fetch would not send (a `#` in the target): written to the socket as is. */
const rawGet = (target: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  });

describe('the front door', () => {
  it('serves a contract operation through the chain, with what Express gives every request', async () => {
    const { status, body } = await get('/v1/things/t%20one?expand=a', { headers: { 'x-probe': 'seen' } });
    expect(status).toBe(200);
    expect(body).toEqual({
      door: 'operation',
      thingId: 't one',
      ip: '127.0.0.1',
      header: 'seen',
      query: { expand: 'a' },
      originalUrl: '/v1/things/t%20one?expand=a',
      baseUrl: '',
    });
  });

  it('leaves everything else to Express: unknown paths, other methods, OPTIONS, letter case', async () => {
    expect((await get('/docs')).body.door).toBe('express');
    expect((await get('/v1/things/x', { method: 'DELETE' })).body.door).toBe('express');
    expect((await get('/V1/things/x')).body.door).toBe('express');
    const options = await fetch(`${url}/v1/things/x`, { method: 'OPTIONS' });
    expect(((await options.json()) as { door: string }).door).toBe('express');
  });

  it('leaves a target Express reads with url.parse (a #) to Express, which reads it as it always did', async () => {
    const answer = await rawGet('/v1/things/x#fragment');
    expect(answer).toContain('"door":"express"');
  });

  it('answers a bare 500 when the error handler itself throws, and the process goes on serving', async () => {
    const res = await fetch(`${url}/v1/things/unanswerable`);
    expect(res.status).toBe(500);
    expect((await get('/v1/things/still-here')).body.door).toBe('operation');
  });

  it("hands a handler's rejection to the error handler, and cuts a connection whose answer had started", async () => {
    errors.length = 0;
    expect(await get('/v1/things/throws')).toEqual({ status: 500, body: { door: 'error' } });
    await expect(fetch(`${url}/v1/things/half`).then((res) => res.text())).rejects.toThrow();
    expect(errors.map((error) => (error as Error).message)).toEqual([
      'sync-looking throw in an async handler',
      'after the answer started',
    ]);
  });
});
