import { type CallArgs, CreditApiError, type CreditClient } from '@credit/sdk';

/** The contract's address shape (its `state` is a two-letter USPS code), straight from the SDK's types. */
type Address = CallArgs<'enrollUser'>['body']['address'];

/** Your customer, as your own systems know them. */
export interface Customer {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  ssnLast4: string;
  dateOfBirth: string;
  address: Address;
}

/** Enrols a customer (or finds them, if already enrolled) and answers our `usr_…` id for them. */
export async function enrolCustomer(credit: CreditClient, customer: Customer): Promise<string> {
  try {
    const enrolled = await credit.call('enrollUser', {
      body: {
        externalUserId: customer.id,
        email: customer.email,
        firstName: customer.firstName,
        lastName: customer.lastName,
        ssn: customer.ssnLast4,
        dateOfBirth: customer.dateOfBirth,
        address: customer.address,
      },
    });
    return enrolled.userId;
  } catch (error) {
    if (!(error instanceof CreditApiError) || error.code !== 'USER_EXISTS') throw error;
    const page = await credit.call('listUsers', { query: { externalUserId: customer.id, limit: 1 } });
    const existing = page.data[0];
    if (!existing) throw error;
    return existing.userId;
  }
}
