import type { CreditSubject } from '../../src/bureau/provider.ts';

/** Jane Doe, whose sandbox file the bureau tests pin, with any field changed. */
export const sandboxSubject = (overrides: Partial<CreditSubject> = {}): CreditSubject => ({
  userId: 'usr_any',
  firstName: 'Jane',
  lastName: 'Doe',
  ssnLast4: '1234',
  dateOfBirth: '1985-04-12',
  address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
  ...overrides,
});
