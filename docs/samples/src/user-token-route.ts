import type { CreditClient } from '@credit/sdk';
import type { Customer } from './enrol-customer.js';

/**
 * Your server's route behind the widget's `fetchUserToken`: after your own sign-in, mint a short-lived user token
 * for the signed-in customer. `userId` is YOUR id for them. The browser gets the token, never your secret.
 */
export async function userTokenFor(credit: CreditClient, signedIn: Customer): Promise<{ userToken: string }> {
  const { userToken } = await credit.mintUserToken({
    externalUserId: signedIn.id,
    email: signedIn.email,
    firstName: signedIn.firstName,
    lastName: signedIn.lastName,
  });
  return { userToken };
}
