import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Express } from 'express';
import { ERROR_CATALOGUE } from '@svc/contract';
import { buildOpenApiDocument, toOpenApi30 } from '@svc/contract/openapi';

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const referencePage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Svc API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const initScript = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true });`;

function errorsPage(): string {
  const rows = Object.entries(ERROR_CATALOGUE)
    .map(([code, d]) => `<tr id="${code}"><td><code>${code}</code></td><td>${d.status}</td><td><code>${d.type}</code></td><td>${escapeHtml(d.description)}</td></tr>`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Svc error codes</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}td,th{padding:.3rem .6rem;border-bottom:1px solid #ddd;text-align:left}tr:target{background:#fff6cc}</style>
</head><body><h1>Error codes</h1><p>Clients branch on <code>code</code>; an unknown code is handled as its <code>type</code>.</p>
<table><thead><tr><th>Code</th><th>HTTP</th><th>Type</th><th>When</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
}

/**
 * `GET /openapi.json` (OpenAPI 3.1.0, generated from the contract), `/openapi.3.0.json` (its 3.0.3 rendering for
 * older tools), `/docs` (Swagger UI over it) and `/docs/errors` (the catalogue that `doc_url` links to).
 */
export function mountDocs(app: Express, baseUrl: string): void {
  // Built at start: built at the first request, it would hold that request (and every other) for a second.
  const document = buildOpenApiDocument(baseUrl);
  const v31 = JSON.stringify(document);
  const v30 = JSON.stringify(toOpenApi30(document));
  const errors = errorsPage();
  app.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(v31);
  });
  app.get('/openapi.3.0.json', (_req, res) => {
    res.type('application/json').send(v30);
  });
  app.get('/docs', (_req, res) => {
    res.type('html').send(referencePage);
  });
  app.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(initScript);
  });
  app.get('/docs/errors', (_req, res) => {
    res.type('html').send(errors);
  });
  app.use('/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1h' }));
}
