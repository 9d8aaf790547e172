export * from './common.ts';
export * from './errors.ts';
export * from './operation.ts';
export * from './resources/auth.ts';
export * from './resources/users.ts';
export * from './operations/index.ts';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi.ts';
