import type { Express } from 'express';

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

/**
 * The routes the app declares itself (`app.get`, `app.post`…): those outside the contract, whose routes live in
 * the route table's one handler. Mounted middleware (`app.use`) is not a route and is not listed.
 */
export function servedOutsideContract(app: Express): { method: string; path: string }[] {
  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  return stack.flatMap((layer) => {
    if (!layer.route) return [];
    const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
    const methods = Object.keys(layer.route.methods).filter((m) => layer.route!.methods[m] && m !== '_all');
    return paths.flatMap((path) => methods.map((method) => ({ method: method.toUpperCase(), path })));
  });
}
