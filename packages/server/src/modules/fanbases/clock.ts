import type { AppContext } from '../../core/context';

/** The time rules are decided at: the context's clock (tests move it), else the system's. */
export const nowOf = (ctx: Pick<AppContext, 'clock'>) => (ctx.clock ? ctx.clock() : new Date());
