import { buildOpenApiDocument } from './openapi.ts';

process.stdout.write(`${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
