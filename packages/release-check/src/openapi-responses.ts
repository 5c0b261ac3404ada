import Ajv2020 from 'ajv/dist/2020.js';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';

/** What a client saw: the operation (method and path template), the status and the JSON body. */
export interface Observed {
  client: string;
  method: string;
  path: string;
  status: number;
  body: unknown;
}

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
}

/**
 * Validates answers against the document's response schemas the way a tenant's Ajv would: JSON Schema 2020-12
 * for OpenAPI 3.1, draft 04 with `nullable` (which Ajv refuses without a `type` beside it) for 3.0. Every
 * schema is compiled in one root beside the components, so their `#/components/schemas/…` references resolve.
 */
export function validateResponses(document: Document, observed: readonly Observed[]): string[] {
  const ajv = document.openapi.startsWith('3.1')
    ? new Ajv2020({ strict: false, allErrors: true })
    : new AjvDraft04({ strict: false, allErrors: true, keywords: ['example'] } as never);
  addFormats(ajv as never);
  const schemaOf = (o: Observed) => document.paths[o.path]?.[o.method]?.responses[String(o.status)]?.content?.['application/json']?.schema;
  const responses = Object.fromEntries(observed.map((o, i) => [`r${i}`, schemaOf(o) ?? false]));
  ajv.addSchema({ components: document.components, responses } as never, 'document');
  return observed.flatMap((o, i) => {
    if (schemaOf(o) === undefined) return [`${o.client} ${o.method} ${o.path} ${o.status}: the document declares no JSON answer`];
    const validate = ajv.getSchema(`document#/responses/r${i}`)!;
    return validate(o.body) ? [] : [`${o.client} ${o.method} ${o.path} ${o.status}: ${ajv.errorsText(validate.errors)}`];
  });
}
