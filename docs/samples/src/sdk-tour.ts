import { CreditClient } from '@credit/sdk';

/** The SDK in five calls: a typed resource, a page, every page, a user token, and the full response when needed. */
export async function sdkTour(env: { baseUrl: string; clientId: string; clientSecret: string }, userId: string) {
  const credit = new CreditClient(env);
  const score = await credit.call('getCreditScore', { params: { userId } }); // typed TCreditScore
  const page = await credit.call('listUsers', { query: { status: 'active' } }); // { data, pagination, meta }
  const everyone: string[] = [];
  for await (const user of credit.list('listUsers', { query: { limit: 100 } })) everyone.push(user.userId);
  const { userToken } = await credit.mintUserToken({
    externalUserId: 'your-own-customer-id',
    email: 'jane@example.com',
    firstName: 'Jane',
    lastName: 'Doe',
  });
  const raw = await credit.request('getUser', { params: { userId } }); // status, headers, requestId, body
  return { score: score.score, firstPage: page.data.length, everyone, userToken, requestId: raw.requestId };
}
