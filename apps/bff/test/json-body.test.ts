import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainJsonBody } from '../src/http/json-body.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';

/**
 * The common request body (JSON in UTF-8, of a stated length, not compressed) is read without body-parser
 * (http/json-body.ts); every other body still goes to body-parser. Both must answer alike: the same body sent as
 * `application/json` (our reader) and with a media-type parameter only body-parser reads gets the same answer.
 */
let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  token = await app.token(await app.createClient());
});
afterAll(() => app.close());

const OURS = 'application/json';
const BODY_PARSERS = 'application/json; charset=utf-8; profile="https://example.test/enrolment"';

let enrolments = 0;
const enrolment = () =>
  JSON.stringify({
    externalUserId: `body-${++enrolments}`,
    email: 'body@example.test',
    firstName: 'Bo',
    lastName: 'Dee',
    ssn: '1234',
    dateOfBirth: '1985-04-12',
    address: { street: '1 Body St', city: 'Springfield', state: 'IL', zipCode: '62701' },
  });

const enrol = async (contentType: string, body: Buffer) => {
  const res = await fetch(`${app.url}/v1/users/enroll`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body,
  });
  const answer = (await res.json()) as { data?: { status: string }; error?: { code: string; details?: unknown } };
  return { status: res.status, data: answer.data?.status, error: answer.error?.code, details: answer.error?.details };
};

describe('a JSON body read without body-parser', () => {
  it('answers every body as body-parser does: valid, with a byte order mark, malformed, not an object, bad UTF-8', async () => {
    const cases: [string, () => Buffer][] = [
      ['valid', () => Buffer.from(enrolment())],
      ['with a byte order mark', () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(enrolment())])],
      ['whitespace around it', () => Buffer.from(` \r\n\t${enrolment()}\n`)],
      ['cut short', () => Buffer.from(enrolment().slice(0, 40))],
      ['a string', () => Buffer.from('"an enrolment"')],
      ['a number after whitespace', () => Buffer.from('  42')],
      ['an array', () => Buffer.from('[1,2]')],
      ['a trailing comma', () => Buffer.from('{"externalUserId":"x",}')],
      [
        'invalid UTF-8 in a value',
        () => {
          const [before, after] = enrolment().split('"Bo"');
          return Buffer.concat([Buffer.from(`${before}"B`), Buffer.from([0xc3, 0x28]), Buffer.from(`"${after}`)]);
        },
      ],
      ['a lone continuation byte', () => Buffer.concat([Buffer.from('{"firstName":"'), Buffer.from([0x80]), Buffer.from('"}')])],
      ['nested too deep', () => Buffer.from(`${'['.repeat(5_000)}${']'.repeat(5_000)}`)],
    ];
    for (const [name, body] of cases) {
      const ours = await enrol(OURS, body());
      const bodyParsers = await enrol(BODY_PARSERS, body());
      expect(ours, name).toEqual(bodyParsers);
      expect(ours.status, name).not.toBe(500);
    }
    // And the valid ones did enrol.
    expect((await enrol(OURS, Buffer.from(enrolment()))).status).toBe(201);
  });

  it('survives a client that closes before the body is complete, and serves the next request', async () => {
    const { port } = new URL(app.url);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /v1/users/enroll HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{"externalUserId":',
        );
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    expect((await enrol(OURS, Buffer.from(enrolment()))).status).toBe(201);
    expect(app.logs.join('\n')).not.toContain('unhandled error');
  });
});

describe('plainJsonBody', () => {
  let server: http.Server;
  let url: string;
  const seen: { via: string; body: unknown }[] = [];

  beforeAll(async () => {
    const fallback: RequestHandler = (req, _res, next) => {
      seen.push({ via: 'fallback', body: undefined });
      req.resume();
      req.on('end', () => next());
    };
    const parser = express();
    parser.use(plainJsonBody(64, fallback));
    parser.use((req, res) => {
      if (seen.at(-1)?.via !== 'fallback') seen.push({ via: 'ours', body: req.body });
      res.end();
    });
    server = parser.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = async (headers: Record<string, string>, body: string) => {
    seen.length = 0;
    await fetch(url, { method: 'POST', headers, body });
    return seen[0];
  };

  it('reads plain JSON itself and leaves every other body to body-parser', async () => {
    expect(await post({ 'content-type': 'application/json' }, '{"a":1}')).toEqual({ via: 'ours', body: { a: 1 } });
    expect(await post({ 'content-type': 'Application/JSON; Charset=UTF-8' }, '[1]')).toEqual({ via: 'ours', body: [1] });
    for (const headers of [
      { 'content-type': 'application/json; charset=latin1' },
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'text/plain' },
    ]) {
      expect((await post(headers, '{"a":1}'))?.via, JSON.stringify(headers)).toBe('fallback');
    }
    // Over the limit (body-parser answers 413) and empty (body-parser answers {}).
    expect((await post({ 'content-type': 'application/json' }, `{"a":"${'x'.repeat(64)}"}`))?.via).toBe('fallback');
    expect((await post({ 'content-type': 'application/json' }, ''))?.via).toBe('fallback');
  });
});
