import { generateOpenApi } from '@ts-rest/open-api';
import { z } from 'zod';
import { contract } from './router';
import { ERROR_CATALOGUE } from './common/errors';

import { API_VERSION } from './common/api-version';

export { API_VERSION };

function errorTable(): string {
  const rows = Object.entries(ERROR_CATALOGUE).map(
    ([code, d]) => `| \`${code}\` | ${d.status} | \`${d.type}\` | ${d.description} |`,
  );
  return ['| Code | HTTP | Type | When |', '|---|---|---|---|', ...rows].join('\n');
}

/** The OpenAPI 3 document of the whole contract. */
export function buildOpenApiDocument(serverUrl?: string) {
  // Named schemas (`.meta({id})`) become shared components instead of copies inside every operation.
  const components: Record<string, unknown> = {};
  const toOpenApi = (schema: z.ZodType) => {
    const json = z.toJSONSchema(schema, {
      target: 'openapi-3.0',
      io: 'input',
      unrepresentable: 'any',
    }) as Record<string, unknown>;
    const defs = (json.definitions ?? json.$defs ?? {}) as Record<string, unknown>;
    delete json.definitions;
    delete json.$defs;
    Object.assign(components, defs);
    return json;
  };
  const document = generateOpenApi(
    contract,
    {
      info: {
        title: 'Svc — Live Experiences Platform API',
        version: 'v1',
        description: [
          'Multi-tenant API for events and ticketing, video streams, access control and webhooks.',
          'Authenticate with `Authorization: Bearer <secret or restricted key>`; a publishable key goes in `Svc-Publishable-Key`.',
          `Event envelopes carry \`api_version\` ${API_VERSION}.`,
          '## Errors',
          errorTable(),
        ].join('\n\n'),
      },
      servers: serverUrl ? [{ url: serverUrl }] : [],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'Secret (`sk_`) or restricted (`rk_`) key.' },
          publishableKey: { type: 'apiKey', in: 'header', name: 'Svc-Publishable-Key' },
          operatorToken: { type: 'http', scheme: 'bearer', description: 'The operator token (`SVC_OPERATOR_TOKEN`).' },
        },
      },
    },
    {
      setOperationId: 'concatenated-path',
      schemaTransformer: ({ schema }) => (schema instanceof z.ZodType ? (toOpenApi(schema) as never) : null),
      operationMapper: (operation, route) => {
        const a = (route.metadata as { access?: { auth: string } } | undefined)?.access;
        const security =
          a?.auth === 'operator' ? [{ operatorToken: [] }] : a?.auth === 'tenant' ? [{ apiKey: [] }] : [];
        return { ...operation, security };
      },
    },
  );
  document.components = { ...document.components, schemas: components as never };
  return JSON.parse(
    JSON.stringify(document).replace(/"#\/(?:definitions|\$defs)\//g, '"#/components/schemas/'),
  ) as typeof document;
}
