import type { AppContext } from '../../core/context';
import { modulePart } from '../../core/modules/module-definition';
import type { IdentityCaches } from './identity-caches';

/** Identity's caches on a context, made by the module's `setup` on the context's LISTEN connection. */
export const identityCachesPart = modulePart<IdentityCaches>('identity');
export const cachesOf = (ctx: Pick<AppContext, 'parts'>): IdentityCaches => identityCachesPart.of(ctx);
