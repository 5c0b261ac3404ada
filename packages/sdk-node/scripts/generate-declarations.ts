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

const root = fileURLToPath(new URL('..', import.meta.url));
const { typeOf, print, checker, declarations } = typePrinter(
  root,
  "import type { ErrorType, OperatorRoutes, SvcEvent, TenantRoutes } from '../src/contract-types';\n" +
    'export declare const tenant: TenantRoutes;\nexport declare const operator: OperatorRoutes;\n' +
    'export declare const errorType: ErrorType;\nexport declare const svcEvent: SvcEvent;\n',
);
const FIELDS = ['ids', 'args', 'result', 'list', 'expand'] as const;

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

function printTree(type: import('typescript').Type, routes: Record<string, unknown>, depth: number): string {
  const indent = '  '.repeat(depth);
  const members = checker.getPropertiesOfType(type).map((property) => {
    const member = checker.getTypeOfSymbol(property);
    const route = routes?.[property.name] as Record<string, unknown> | undefined;
    const fields = FIELDS.map((f) => member.getProperty(f));
    if (fields.every(Boolean)) {
      const body = FIELDS.map((f, i) => `${indent}  ${f}: ${print(checker.getTypeOfSymbol(fields[i]!))};`).join('\n');
      return `${docComment(route as unknown as RouteDocs, indent)}${indent}${property.name}: {\n${body}\n${indent}};`;
    }
    return `${indent}${property.name}: {\n${printTree(member, route ?? {}, depth + 1)}\n${indent}};`;
  });
  return members.join('\n');
}

const contractRoutes = contract as unknown as Record<string, unknown>;
const output = [
  '// Generated from the contract by scripts/generate-declarations.ts for the published declarations.',
  `export type ErrorType = ${print(typeOf('errorType'))};`,
  '',
  '/** A webhook event of a type this SDK knows, narrowed by `type`. New types may arrive first: ignore them. */',
  `export type SvcEvent = ${print(typeOf('svcEvent'))};`,
  '',
  '/** The tenant routes of the contract, in plain types. */',
  `export interface TenantRoutes {\n${printTree(typeOf('tenant'), contractRoutes, 1)}\n}`,
  '',
  '/** The operator routes of the contract, in plain types. */',
  `export interface OperatorRoutes {\n${printTree(typeOf('operator'), contractRoutes, 1)}\n}`,
  '',
];
output.splice(2, 0, ...declarations, '');
const text = output.join('\n');
writeFileSync(join(root, 'build', 'src', 'contract-types.ts'), text);
process.stdout.write(`build/src/contract-types.ts: ${text.length} characters\n`);
