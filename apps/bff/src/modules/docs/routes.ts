import { createRequire } from 'node:module';
import path from 'node:path';
import { buildOpenApiDocument, ERROR_PAGE_PATH } from '@credit/contract';
import express, { Router } from 'express';
import type { AppContext } from '../../context.ts';
import type { ModuleRoutes } from '../../http/route.ts';
import { renderErrorsPage } from './errors-page.ts';

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

// Self-hosted Swagger UI: the reference works offline and loads nothing from third parties.
const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Credit API reference</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/init.js"></script></body></html>`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true,
  defaultModelsExpandDepth: 0, docExpansion: 'list', tryItOutEnabled: false });`;

/** Pages only, no contract operation: the reference, the OpenAPI document, the errors page and `/health`. */
export const docsRoutes = (ctx: AppContext): ModuleRoutes => {
  const router = Router();
  // This environment's operations only: production leaves out the sandbox helpers, which answer 404 there.
  const document = buildOpenApiDocument(ctx.config.PUBLIC_URL ?? '/', { environment: ctx.config.APP_ENV });
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_PAGE);
  });
  const errorsPage = renderErrorsPage();
  router.get(ERROR_PAGE_PATH, (_req, res) => {
    res.type('html').send(errorsPage);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(DOCS_INIT);
  });
  router.use('/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1d' }));
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok', environment: ctx.config.APP_ENV });
  });
  return { operations: [], pages: router };
};
