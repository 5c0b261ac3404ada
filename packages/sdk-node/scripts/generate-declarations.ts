// Prints the SDK's route types as plain declarations for the published package. The workspace computes them
// from the contract's zod schemas (src/contract-types.ts); a tenant's compiler would redo that on every check,
// loading the whole contract and zod. This copies src/ to build/src/ with contract-types.ts replaced by what
// the compiler resolved, each method carrying its route's summary and description as TSDoc. tsup builds the
// declarations from build/src/ and the code from src/.
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { contract } from '@svc/contract';

const root = fileURLToPath(new URL('..', import.meta.url));
const build = join(root, 'build');
rmSync(build, { recursive: true, force: true });
cpSync(join(root, 'src'), join(build, 'src'), { recursive: true });

const probe = join(build, 'probe.ts');
writeFileSync(
  probe,
  "import type { ErrorType, OperatorRoutes, SvcEvent, TenantRoutes } from '../src/contract-types';\n" +
    'export declare const tenant: TenantRoutes;\nexport declare const operator: OperatorRoutes;\n' +
    'export declare const errorType: ErrorType;\nexport declare const svcEvent: SvcEvent;\n',
);
const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
if (!config) throw new Error('tsconfig.json not readable');
const program = ts.createProgram([probe], { ...config.options, noEmit: true });
const checker = program.getTypeChecker();
const source = program.getSourceFile(probe)!;
const errors = ts.getPreEmitDiagnostics(program, source);
if (errors.length) throw new Error(ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }));

const FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias | ts.TypeFormatFlags.UseFullyQualifiedType;
const declared = new Map<string, ts.Node>();
ts.forEachChild(source, (node) => {
  if (ts.isVariableStatement(node)) for (const d of node.declarationList.declarations) declared.set(d.name.getText(source), d.name);
});
const typeOf = (name: string) => checker.getTypeAtLocation(declared.get(name)!);
// Prints a type in full. An object type met again inside itself (an API key's `created_by` is an API key)
// becomes a named alias, declared once beside the routes.
const aliases = new Map<ts.Type, { name: string; body?: string }>();
const declarations: string[] = [];
let aliasCount = 0;

function printType(type: ts.Type, stack: ts.Type[]): string {
  if (type.isUnion()) {
    const members = type.types;
    const hasObject = members.some((m) => m.flags & ts.TypeFlags.Object);
    if (!hasObject) return checker.typeToString(type, undefined, FLAGS);
    const booleans = members.filter((m) => m.flags & ts.TypeFlags.BooleanLiteral);
    const rest = members.filter((m) => !(m.flags & ts.TypeFlags.BooleanLiteral)).map((m) => printType(m, stack));
    return [...rest, ...(booleans.length === 2 ? ['boolean'] : booleans.map((b) => checker.typeToString(b)))].join(' | ');
  }
  if (!(type.flags & ts.TypeFlags.Object)) return checker.typeToString(type, undefined, FLAGS);
  if (checker.isArrayType(type)) {
    const element = printType(checker.getTypeArguments(type as ts.TypeReference)[0]!, stack);
    return /[|&]/.test(element) ? `(${element})[]` : `${element}[]`;
  }
  if (checker.isTupleType(type)) return `[${checker.getTypeArguments(type as ts.TypeReference).map((t) => printType(t, stack)).join(', ')}]`;
  const named = type.getSymbol()?.getName();
  if (named && !named.startsWith('__')) return checker.typeToString(type, undefined, FLAGS);
  const alias = aliases.get(type);
  if (alias) return alias.name;
  if (stack.includes(type)) {
    const name = `Object${++aliasCount}`;
    aliases.set(type, { name });
    return name;
  }
  const inner = [...stack, type];
  const members = checker.getPropertiesOfType(type).map((p) => {
    const optional = p.flags & ts.SymbolFlags.Optional ? '?' : '';
    const key = /^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : JSON.stringify(p.name);
    return `${key}${optional}: ${printType(checker.getTypeOfSymbol(p), inner)};`;
  });
  for (const info of checker.getIndexInfosOfType(type)) {
    members.push(`[key: ${checker.typeToString(info.keyType)}]: ${printType(info.type, inner)};`);
  }
  const body = members.length ? `{ ${members.join(' ')} }` : '{}';
  const named2 = aliases.get(type);
  if (named2) {
    declarations.push(`type ${named2.name} = ${body};`);
    return named2.name;
  }
  return body;
}

const print = (type: ts.Type) => {
  const text = printType(type, []);
  const found = /\bany\b|\.\.\./.exec(text.replace(/"[^"]*"/g, (s) => '_'.repeat(s.length)));
  if (found) throw new Error(`a type did not print in full: ${text.slice(Math.max(0, found.index - 300), found.index + 50)}`);
  return text;
};
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

function printTree(type: ts.Type, routes: Record<string, unknown>, depth: number): string {
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
writeFileSync(join(build, 'src', 'contract-types.ts'), text);
rmSync(probe);
process.stdout.write(`build/src/contract-types.ts: ${text.length} characters\n`);
