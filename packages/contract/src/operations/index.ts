import type { Operation } from '../operation.ts';
import * as auth from './auth.ts';
import * as users from './users.ts';

export * from './auth.ts';
export * from './users.ts';

/** Every operation of the API, in the order the reference lists them. */
export const ALL_OPERATIONS: Operation[] = [...Object.values(auth), ...Object.values(users)];
