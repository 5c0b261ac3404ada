// Prints the SDK's route types as plain declarations for the published package. The workspace computes them
// from the contract's zod schemas (src/contract-types.ts); a tenant's compiler would redo that on every check,
// loading the whole contract and zod. This copies src/ to build/src/ with contract-types.ts replaced by what
// the compiler resolved, each method carrying its route's summary and description as TSDoc. tsup builds the
// declarations from build/src/ and the code from src/.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typePrinter } from '@svc/release-check';
import { contract } from '@svc/contract';
import { arrange } from '../src/layout';
import { hoistRepeatedTypes } from './hoist-repeated-types';

const root = fileURLToPath(new URL('..', import.meta.url));
const { typeOf, print, checker, declarations } = typePrinter(
  root,
  "import type { ErrorType, OperatorRoutes, SvcEvent, TenantRoutes } from '../src/contract-types';\n" +
    'export declare const tenant: TenantRoutes;\nexport declare const operator: OperatorRoutes;\n' +
    'export declare const errorType: ErrorType;\nexport declare const svcEvent: SvcEvent;\n',
);

interface RouteDocs {
  summary?: string;
  description?: string;
  method: string;
  path: string;
}
const docComment = (route: RouteDocs | undefined, indent: string) => {
  if (!route) return '';
  const text = [route.summary, route.description, `\`${route.method} ${route.path}\``]
    .filter(Boolean)
    .join('\n\n')
    .replace(/\*\//g, '*\\/');
  return `${indent}/**\n${text.split('\n').map((line) => `${indent} *${line ? ` ${line}` : ''}`).join('\n')}\n${indent} */\n`;
};

const typeOfField = (type: import('typescript').Type, field: string) => checker.getTypeOfSymbol(type.getProperty(field)!);
const isTrue = (type: import('typescript').Type) => checker.typeToString(type) === 'true';

/** A route's method: path ids first, or everything in one object; both signatures carry the route's TSDoc. */
function printMethod(name: string, route: import('typescript').Type, docs: string, indent: string): string {
  const signature = typeOfField(route, 'signature');
  const ids = checker.getTypeArguments(typeOfField(route, 'ids') as import('typescript').TypeReference).map((t) => JSON.parse(checker.typeToString(t)) as string);
  const expand = isTrue(typeOfField(route, 'expand'));
  const generic = expand ? '<const E extends readonly string[] = []>' : '';
  const withExpand = expand ? ' & { expand?: E }' : '';
  const result = print(typeOfField(route, 'result'));
  const answer = expand ? `Expanded<${result}, E>` : result;
  const returns = isTrue(typeOfField(route, 'list')) ? `PagePromise<${answer}>` : `Promise<${answer}>`;
  const optional = (field: string) => (isTrue(typeOfField(signature, field)) ? '?' : '');
  const lines: string[] = [];
  if (ids.length) {
    const params = ids.map((id) => `${id}: string`).join(', ');
    lines.push(`${docs}${indent}${name}${generic}(${params}, args${optional('payloadOptional')}: ${print(typeOfField(signature, 'payload'))}${withExpand}, options?: RequestOptions): ${returns};`);
  }
  lines.push(`${docs}${indent}${name}${generic}(args${optional('argsOptional')}: ${print(typeOfField(route, 'args'))}${withExpand}, options?: RequestOptions): ${returns};`);
  return lines.join('\n');
}

function printTree(type: import('typescript').Type, routes: Record<string, unknown>, depth: number): string {
  const indent = '  '.repeat(depth);
  const members = checker.getPropertiesOfType(type).map((property) => {
    const member = checker.getTypeOfSymbol(property);
    const route = routes?.[property.name] as Record<string, unknown> | undefined;
    if (member.getProperty('signature')) return printMethod(property.name, member, docComment(route as unknown as RouteDocs, indent), indent);
    return `${indent}${property.name}: {\n${printTree(member, route ?? {}, depth + 1)}\n${indent}};`;
  });
  return members.join('\n');
}

// The docs are looked up where the client puts each route.
const contractRoutes = arrange(contract) as unknown as Record<string, unknown>;
const output = [
  '// Generated from the contract by scripts/generate-declarations.ts for the published declarations.',
  "import type { PagePromise } from './core/pagination';",
  "import type { RequestOptions } from './core/request';",
  "import type { Expanded } from './core/types';",
  `export type ErrorType = ${print(typeOf('errorType'))};`,
  '',
  '/** A webhook event of a type this SDK knows, narrowed by `type`. New types may arrive first: ignore them. */',
  `export type SvcEvent = ${print(typeOf('svcEvent'))};`,
  '',
  '/** The tenant client\'s methods: every tenant route of the contract. */',
  `export interface TenantResources {\n${printTree(typeOf('tenant'), contractRoutes, 1)}\n}`,
  '',
  '/** The operator client\'s methods: every operator route of the contract. */',
  `export interface OperatorResources {\n${printTree(typeOf('operator'), contractRoutes, 1)}\n}`,
  '',
];
output.splice(5, 0, ...declarations, '');
const text = hoistRepeatedTypes(output.join('\n'));
writeFileSync(join(root, 'build', 'src', 'contract-types.ts'), text);
process.stdout.write(`build/src/contract-types.ts: ${text.length} characters\n`);
