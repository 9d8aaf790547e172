export * from './common.ts';
export * from './console.ts';
export * from './errors.ts';
export {
  buildOpenApiDocument,
  ERROR_PAGE_PATH,
  errorPageLink,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  type OpenApiDocument,
  type OpenApiEnvironment,
} from './openapi.ts';
export * from './operation.ts';
export * from './operations/index.ts';
export * from './resources/alerts.ts';
export * from './resources/audit.ts';
export * from './resources/auth.ts';
export * from './resources/consent.ts';
export * from './resources/console.ts';
export * from './resources/credentials.ts';
export * from './resources/credit.ts';
export * from './resources/credit-report.ts';
export * from './resources/event-log.ts';
export * from './resources/events.ts';
export * from './resources/offers.ts';
export * from './resources/sandbox.ts';
export * from './resources/sandbox-clocks.ts';
export * from './resources/users.ts';
export * from './resources/verification.ts';
export * from './resources/webhooks.ts';
export * from './resources/widget.ts';
export * from './strings.ts';
export * from './widget-protocol.ts';
