import { generateOpenApi } from '@ts-rest/open-api';
import { z } from 'zod';
import { API_VERSION } from '../common/api-version';
import type { RouteAccess } from '../common/access';
import { ERROR_CATALOGUE } from '../common/errors';
import { contract } from '../router';
import { MUTATING, headersFor, idempotencyParameter, requestParameters, responseHeaders } from './headers';
import { OUTSIDE_CONTRACT } from './outside-contract';
import { schemaConverter, withComponentRefs, type JsonSchema } from './schemas';
import { accessNote, securityOf, securitySchemes } from './security';
import { TAGS, tagOf } from './tags';

export type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown> & { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
};
type Operation = Record<string, unknown> & { parameters?: Parameter[]; responses?: Record<string, Record<string, unknown>> };
type Parameter = { name?: string; in?: string; $ref?: string; [key: string]: unknown };

const REPOSITORY = 'https://github.com/svc-dev/svc';

function errorTable(): string {
  const rows = Object.entries(ERROR_CATALOGUE).map(([code, d]) => `| \`${code}\` | ${d.status} | \`${d.type}\` | ${d.description} |`);
  return ['| Code | HTTP | Type | When |', '|---|---|---|---|', ...rows].join('\n');
}

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK', '201': 'Created', '202': 'Accepted', '204': 'No content', '302': 'Redirect', '303': 'See other',
  '400': 'Bad request', '401': 'Not authenticated', '403': 'Not permitted', '404': 'Not found', '409': 'Conflict',
  '410': 'Gone', '412': 'Precondition failed', '413': 'Body too large', '415': 'Unsupported media type',
  '422': 'Validation failed', '429': 'Rate limited', '500': 'Server error', '502': 'Provider error', '503': 'Unavailable',
};

/** One contract operation, with what ts-rest cannot know: its section, credentials, idempotency and response headers. */
function completeOperation(operation: Operation, method: string, access: RouteAccess, routerKeys: string[]): Operation {
  const note = accessNote(access);
  const idempotency = MUTATING.has(method) ? [idempotencyParameter('idempotency' in access && access.idempotency === 'required')] : [];
  const responses = Object.fromEntries(
    Object.entries(operation.responses ?? {}).map(([status, response]) => [
      status,
      { ...response, description: response.description === status ? (STATUS_TEXT[status] ?? status) : response.description, headers: headersFor(method, status) },
    ]),
  );
  return {
    ...operation,
    tags: [tagOf(routerKeys, access.auth)],
    description: [operation.description, note.text].filter(Boolean).join('\n\n'),
    parameters: [...(operation.parameters ?? []), ...idempotency],
    security: securityOf(access),
    'x-svc-access': note.extension,
    responses,
  };
}

/** ts-rest reads `:segment.ts` as a parameter named `segment.ts`: keep only the parameters the template has, once each. */
function fixPathParameters(path: string, operation: Operation): void {
  const inTemplate = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
  const seen = new Set<string>();
  operation.parameters = (operation.parameters ?? []).filter((p) => {
    if (p.in !== 'path') return true;
    if (!p.name || !inTemplate.has(p.name) || seen.has(p.name)) return false;
    seen.add(p.name);
    return true;
  });
}

/** The OpenAPI 3.1.0 document of the whole API: the contract, and the routes served beside it. */
export function buildOpenApiDocument(serverUrl?: string): OpenApiDocument {
  const { components, convert } = schemaConverter();
  const generated = generateOpenApi(
    contract,
    {
      openapi: '3.1.0',
      info: {
        title: 'Svc — Live Experiences Platform API',
        version: 'v1',
        license: { name: 'MIT', identifier: 'MIT' },
        contact: { name: 'Svc', url: REPOSITORY },
        description: [
          'Multi-tenant API for events and ticketing, video streams, access control and webhooks.',
          'Authenticate with `Authorization: Bearer <secret or restricted key>`; a publishable key goes in `Svc-Publishable-Key`. ' +
            'Each operation lists the credentials it takes (`security`) and, in its description and `x-svc-access`, the scope or permission it needs.',
          'Send an `Idempotency-Key` on any POST, PATCH or DELETE to make a retry safe; the routes that move money or access require one.',
          `Event envelopes carry \`api_version\` ${API_VERSION}. This document is also served as OpenAPI 3.0.3 at \`/openapi.3.0.json\`.`,
          '## Errors',
          errorTable(),
        ].join('\n\n'),
      },
      servers: serverUrl ? [{ url: serverUrl, description: 'This server' }] : [],
      externalDocs: { description: 'Guides for each product', url: `${REPOSITORY}/tree/main/docs` },
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    },
    {
      setOperationId: 'concatenated-path',
      schemaTransformer: ({ schema }) => (schema instanceof z.ZodType ? (convert(schema) as never) : null),
      operationMapper: (operation, route) => {
        const access = (route.metadata as { access?: RouteAccess } | undefined)?.access ?? { auth: 'public' };
        const routerKeys = String((operation as { operationId?: string }).operationId).split('.').slice(0, -1);
        return completeOperation(operation as Operation, route.method.toLowerCase(), access, routerKeys) as never;
      },
    },
  ) as unknown as OpenApiDocument;

  for (const [path, item] of Object.entries(generated.paths)) {
    for (const operation of Object.values(item)) fixPathParameters(path, operation);
  }
  for (const [path, item] of Object.entries(OUTSIDE_CONTRACT)) {
    if (generated.paths[path]) throw new Error(`${path} is both a contract route and a route outside it`);
    generated.paths[path] = Object.fromEntries(
      Object.entries(item).map(([method, op]) => [
        method,
        {
          ...op,
          responses: Object.fromEntries(Object.entries(op.responses as Record<string, Record<string, unknown>>).map(([s, r]) => [s, { ...r, headers: headersFor(method, s) }])),
        },
      ]),
    );
  }
  generated.components = {
    schemas: components as Record<string, JsonSchema>,
    securitySchemes,
    parameters: requestParameters,
    headers: responseHeaders,
  };
  return withComponentRefs(generated);
}
