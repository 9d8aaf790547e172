import type { TEnrollmentInput } from '@credit/contract';
import { enrollment } from './harness.ts';

/** The harness's valid enrollment, typed as the SDK takes it (a US state code, not any string). */
export const sdkEnrollment = (overrides: Partial<TEnrollmentInput> = {}): TEnrollmentInput => ({
  ...enrollment(),
  address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
  ...overrides,
});
