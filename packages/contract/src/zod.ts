import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Adds `.openapi()` to zod once, before any schema of the contract is built.
extendZodWithOpenApi(z);

export { z };
