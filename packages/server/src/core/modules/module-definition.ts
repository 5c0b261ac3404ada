import type { Express, RequestHandler } from 'express';
import type { Contract } from '@svc/contract';
import type { AppContext } from '../context';
import type { EventSubscriber } from '../events/event-subscribers';
import type { NotificationListener } from '../notify';
import type { JobDefinition } from '../../jobs/queue';
import type { WorkPlace } from '../../jobs/job-definition';

/** The handlers of contract groups a module serves, each made with ts-rest's `s.router(contract.<group>, …)`. */
export type ModuleRouters = { [G in keyof Contract]?: object };

/** Long-running work a module keeps beside the job queue (the webhook retry scheduler, the media network's nginx). */
export interface ModuleWorker {
  /** Which processes run it (`SVC_ROLE`); absent: `worker`. Its jobs are worked where it runs. */
  runsIn?: WorkPlace;
  /** Its jobs, registered with the module's other jobs. */
  jobs?: readonly JobDefinition<any>[];
  /** After the job queue started; `url` is where this process listens (for callbacks of its own child processes). */
  start(server: { url: string }): void | Promise<void>;
  /** After requests drained, before the job queue stops. */
  stop(): Promise<void>;
  /** After the job queue stopped: release kept connections. */
  close?(): void;
}

/**
 * A product module, as its folder's `index.ts` exports it. The app and the server build themselves from the
 * list in `modules/index.ts`; core never imports a module. What a module offers other modules is exported
 * from the same `index.ts`, the only file another module may import, and only if `.dependency-cruiser.cjs`
 * lists the dependency.
 */
export interface ModuleDefinition {
  /** The folder's name under `modules/`. */
  name: string;
  /** Builds the module's long-lived parts on a new context (caches on the LISTEN connection, networks) and fills auth slots. */
  setup?(ctx: AppContext, listener: NotificationListener): void;
  /** The contract groups it serves. Routes are tried in the order of the module list. */
  routers?(ctx: AppContext): ModuleRouters;
  /** Routes outside the contract that read the raw body, mounted before the JSON body parser with the given middleware. */
  mountRaw?(app: Express, ctx: AppContext, middleware: RequestHandler[]): void;
  /** Public pages outside the contract (documentation), limited per client IP like public routes. */
  pages?: { paths: readonly string[]; mount(app: Express, ctx: AppContext): void };
  /** Its background jobs, registered before the job queue starts. */
  jobs?(ctx: AppContext): readonly JobDefinition<any>[];
  /** Work kept beside the job queue. */
  worker?(ctx: AppContext): ModuleWorker;
  /** Called in the emitting transaction with every batch of events (`core/events/emit-event.ts`). */
  onEvents?: EventSubscriber;
}

/** Checks the list once: names are unique and each contract group is served by exactly one module. */
export function checkModules(modules: readonly ModuleDefinition[], routers: readonly ModuleRouters[], groups: readonly string[]): void {
  const names = new Set<string>();
  const served = new Map<string, string>();
  modules.forEach((m, i) => {
    if (names.has(m.name)) throw new Error(`module ${m.name} is listed twice`);
    names.add(m.name);
    for (const group of Object.keys(routers[i] ?? {})) {
      if (served.has(group)) throw new Error(`contract group ${group} is served by ${served.get(group)} and ${m.name}`);
      served.set(group, m.name);
    }
  });
  const missing = groups.filter((g) => !served.has(g));
  if (missing.length > 0) throw new Error(`no module serves the contract group(s) ${missing.join(', ')}`);
}

/** A typed slot for one module's long-lived part on a context (its cache, its networks): `part.of(ctx)`. */
export interface ModulePart<T> {
  of(ctx: Pick<AppContext, 'parts'>): T;
  set(ctx: Pick<AppContext, 'parts'>, value: T): void;
}

export function modulePart<T>(name: string): ModulePart<T> {
  return {
    of(ctx) {
      if (!ctx.parts.has(name)) throw new Error(`${name} is not set up: is its module in the list?`);
      return ctx.parts.get(name) as T;
    },
    set(ctx, value) {
      ctx.parts.set(name, value);
    },
  };
}
