/** The OpenAPI documents of the contract: 3.1.0 (served at `/openapi.json`) and its 3.0.3 rendering (`/openapi.3.0.json`). */
export { buildOpenApiDocument, type OpenApiDocument } from './openapi/document';
export { toOpenApi30 } from './openapi/openapi-3.0';
export { API_VERSION } from './common/api-version';
