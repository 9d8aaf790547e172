import http from 'node:http';
import { firstLoadScripts, kb } from './sizes.ts';

export type Encoding = 'br' | 'gzip';
export const ENCODINGS: Encoding[] = ['br', 'gzip'];

export interface ServedResponse {
  status: number;
  /** What the server actually sent: `br`, `gzip`, or `identity` when it ignored the request. */
  contentEncoding: string;
  /** Body bytes as they crossed the wire (node:http does not decode), so compression counts as served. */
  bytes: number;
  /** `Content-Length` when the server sent one; it must agree with `bytes`. */
  contentLength: number | null;
  cacheControl: string;
  vary: string;
  body: Buffer;
}

/** One GET with `Accept-Encoding: <encoding>` only, counting the raw body bytes. */
export const getServed = (url: string, acceptEncoding: string): Promise<ServedResponse> =>
  new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        const length = response.headers['content-length'];
        resolve({
          status: response.statusCode ?? 0,
          contentEncoding: String(response.headers['content-encoding'] ?? 'identity'),
          bytes: body.length,
          contentLength: length === undefined ? null : Number(length),
          cacheControl: String(response.headers['cache-control'] ?? ''),
          vary: String(response.headers.vary ?? ''),
          body,
        });
      });
    });
    request.on('error', reject);
  });

/** Stylesheets the frame's HTML links: render-blocking, so part of the first load. */
export const firstLoadStyles = (html: string): string[] => {
  const urls = new Set<string>();
  for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
    const url = /\bhref=["']([^"']+\.css)["']/.exec(tag)?.[1];
    if (/\brel=["']stylesheet["']/.test(tag) && url) urls.add(url);
  }
  return [...urls];
};

export interface ServedAsset {
  /** Path on the API, e.g. `/embed.js` or `/widget/assets/index-abc.js`. */
  path: string;
  kind: 'loader' | 'js' | 'css';
  served: Record<Encoding, ServedResponse>;
}

/**
 * embed.js and the frame's first-load JS and CSS, as the running API serves them to a browser asking for
 * brotli, then for gzip. The asset list comes from the HTML the API serves at /widget, not from the disk.
 */
export const measureServedAssets = async (apiUrl: string): Promise<ServedAsset[]> => {
  const frame = await getServed(`${apiUrl}/widget`, 'identity');
  if (frame.status !== 200) throw new Error(`GET /widget answered ${frame.status}: is the widget built?`);
  const html = frame.body.toString('utf8');
  const toPath = (url: string) => new URL(url, `${apiUrl}/widget/`).pathname;
  const files: Omit<ServedAsset, 'served'>[] = [
    { path: '/embed.js', kind: 'loader' },
    ...firstLoadScripts(html).map((url) => ({ path: toPath(url), kind: 'js' as const })),
    ...firstLoadStyles(html).map((url) => ({ path: toPath(url), kind: 'css' as const })),
  ];
  return Promise.all(
    files.map(async (file) => {
      const [br, gzip] = await Promise.all(ENCODINGS.map((encoding) => getServed(`${apiUrl}${file.path}`, encoding)));
      return { ...file, served: { br: br as ServedResponse, gzip: gzip as ServedResponse } };
    }),
  );
};

const bytes = (count: number) => `${count.toLocaleString('en-US')} B (${kb(count)})`;

const describeServed = (asked: Encoding, served: ServedResponse) =>
  served.contentEncoding === asked
    ? `${asked} ${bytes(served.bytes)}`
    : `${asked} asked, ${served.contentEncoding} sent: ${bytes(served.bytes)}${served.status === 200 ? '' : ` (HTTP ${served.status})`}`;

export const formatServedAssets = (assets: ServedAsset[]): string => {
  const firstLoad = assets.filter((asset) => asset.kind !== 'loader');
  const total = (encoding: Encoding) => firstLoad.reduce((sum, asset) => sum + asset.served[encoding].bytes, 0);
  return [
    'served over HTTP by the API (body bytes on the wire):',
    ...assets.map(
      (asset) =>
        `  ${asset.path}: ${ENCODINGS.map((encoding) => describeServed(encoding, asset.served[encoding])).join(', ')}` +
        ` · cache-control: ${asset.served.br.cacheControl || 'none'}`,
    ),
    `  widget first-load JS+CSS: br ${bytes(total('br'))}, gzip ${bytes(total('gzip'))}`,
  ].join('\n');
};
