/** The API over HTTP as a partner calls it: a client's token, JSON in and out, and the timing of one call. */

export interface Answer {
  status: number;
  text: string;
  ms: number;
}

export const api = (baseUrl: string) => {
  const call = async (method: string, path: string, token: string, body?: unknown): Promise<Answer> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, ms: performance.now() - started };
  };
  /** The call, which must answer `status`; its `data`. */
  const expect = async <T = any>(status: number, method: string, path: string, token: string, body?: unknown) => {
    const answer = await call(method, path, token, body);
    if (answer.status !== status) throw new Error(`${method} ${path}: ${answer.status} ${answer.text.slice(0, 400)}`);
    return { ...answer, data: (JSON.parse(answer.text) as { data: T }).data };
  };
  const token = async (clientId: string, secret: string): Promise<string> => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
    const res = await fetch(`${baseUrl}/oauth/token`, { method: 'POST', body: form });
    if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  return { call, expect, token };
};

/** An offer the benchmark adds to a catalogue: cards, and loans with a term, open to every score. */
export const benchOffer = (i: number) => {
  const loan = i % 3 === 0;
  return {
    type: loan ? 'loan' : 'credit_card',
    name: `Bench ${loan ? 'Loan' : 'Card'} ${i}`,
    description: 'An offer the benchmark adds to the catalogue.',
    aprType: loan ? 'fixed' : 'variable',
    tiers: [{ minScore: 300, maxScore: 850, apr: 12 + (i % 10), creditLimit: { min: 1000, max: 20000 } }],
    ...(loan ? { termMonths: 60 } : {}),
    applicationUrl: 'https://apply.bench-bank.example/offers?click={clickId}',
  };
};
