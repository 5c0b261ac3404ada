import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias | ts.TypeFormatFlags.UseFullyQualifiedType;

export interface TypePrinter {
  /** The type of `export declare const <name>` in the probe. */
  typeOf(name: string): ts.Type;
  /** The type written out in full, with no reference to where it came from. */
  print(type: ts.Type): string;
  checker: ts.TypeChecker;
  /** Aliases for recursive object types met while printing; they go beside what was printed. */
  declarations: string[];
}

/**
 * Copies a package's `src/` to `build/src/` (where its published declarations are built from) and compiles a
 * probe there, whose `export declare const` types can then be printed plainly: a published package's
 * declarations then need neither the contract nor zod, and a tenant's compiler evaluates none of their types.
 */
export function typePrinter(packageRoot: string, probe: string): TypePrinter {
  const build = join(packageRoot, 'build');
  rmSync(build, { recursive: true, force: true });
  cpSync(join(packageRoot, 'src'), join(build, 'src'), { recursive: true });
  const file = join(build, 'probe.ts');
  writeFileSync(file, probe);
  const config = ts.getParsedCommandLineOfConfigFile(join(packageRoot, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error(`${packageRoot}/tsconfig.json is not readable`);
  const program = ts.createProgram([file], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const errors = ts.getPreEmitDiagnostics(program, source);
  if (errors.length) throw new Error(ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => packageRoot, getNewLine: () => '\n' }));
  rmSync(file);

  const declared = new Map<string, ts.Node>();
  ts.forEachChild(source, (node) => {
    if (ts.isVariableStatement(node)) for (const d of node.declarationList.declarations) declared.set(d.name.getText(source), d.name);
  });

  // An object type met again inside itself (an API key's `created_by` is an API key) becomes a named alias.
  const aliases = new Map<ts.Type, string>();
  const declarations: string[] = [];

  function printType(type: ts.Type, stack: ts.Type[]): string {
    if (type.isUnion()) {
      if (!type.types.some((m) => m.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection))) return checker.typeToString(type, undefined, FLAGS);
      const booleans = type.types.filter((m) => m.flags & ts.TypeFlags.BooleanLiteral);
      const rest = type.types.filter((m) => !(m.flags & ts.TypeFlags.BooleanLiteral)).map((m) => printType(m, stack));
      return [...rest, ...(booleans.length === 2 ? ['boolean'] : booleans.map((b) => checker.typeToString(b)))].join(' | ');
    }
    // An intersection is printed as the one object it makes, so nothing refers back to where its parts live.
    if (!(type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection))) return checker.typeToString(type, undefined, FLAGS);
    if (checker.isArrayType(type)) {
      const element = printType(checker.getTypeArguments(type as ts.TypeReference)[0]!, stack);
      return /[|&]/.test(element) ? `(${element})[]` : `${element}[]`;
    }
    if (checker.isTupleType(type)) return `[${checker.getTypeArguments(type as ts.TypeReference).map((t) => printType(t, stack)).join(', ')}]`;
    const named = type.getSymbol()?.getName();
    if (named && !named.startsWith('__')) return checker.typeToString(type, undefined, FLAGS);
    const alias = aliases.get(type);
    if (alias) return alias;
    if (stack.includes(type)) {
      const name = `Object${aliases.size + 1}`;
      aliases.set(type, name);
      return name;
    }
    const inner = [...stack, type];
    const members = checker.getPropertiesOfType(type).map((p) => {
      const optional = p.flags & ts.SymbolFlags.Optional ? '?' : '';
      const key = /^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : JSON.stringify(p.name);
      return `${key}${optional}: ${printType(checker.getTypeOfSymbol(p), inner)};`;
    });
    for (const info of checker.getIndexInfosOfType(type)) members.push(`[key: ${checker.typeToString(info.keyType)}]: ${printType(info.type, inner)};`);
    const body = members.length ? `{ ${members.join(' ')} }` : '{}';
    const named2 = aliases.get(type);
    if (!named2) return body;
    declarations.push(`type ${named2} = ${body};`);
    return named2;
  }

  return {
    checker,
    declarations,
    typeOf: (name) => checker.getTypeAtLocation(declared.get(name)!),
    print(type) {
      const text = printType(type, []);
      const found = /\bany\b|\.\.\.|\bimport\(/.exec(text.replace(/"[^"]*"/g, (s) => '_'.repeat(s.length)));
      if (found) throw new Error(`a type did not print in full: ${text.slice(Math.max(0, found.index - 300), found.index + 50)}`);
      return text;
    },
  };
}
