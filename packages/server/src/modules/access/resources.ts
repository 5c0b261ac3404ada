import { objectTypeOfId, type AccessResourceType } from '@svc/contract';
import type { Executor } from '../../db/database';
import { ApiError } from '../../core/errors';
import type { Scope } from '../../core/scope';
import { playableExists, playableScopes } from '../streams';

/** A live stream or asset an entitlement or session is about. */
export interface AccessResource {
  type: AccessResourceType;
  id: string;
  variant: string | null;
}

const TYPE_BY_OBJECT: Record<string, AccessResourceType> = { live_stream: 'ls', asset: 'ast' };

const notFound = (id: string, param: string) =>
  ApiError.of('resource_not_found', { message: `No such live stream or asset: '${id}'.`, param });

/**
 * The resource a request names, by id or by `{type, id, variant}`. An id whose prefix is not a live stream's
 * or an asset's, or does not match `type`, is `404 resource_not_found` like an id of another tenant.
 */
export function resourceOf(input: string | { type: AccessResourceType; id: string; variant?: string | null }): AccessResource {
  const id = typeof input === 'string' ? input : input.id;
  const type = TYPE_BY_OBJECT[objectTypeOfId(id) ?? ''];
  const param = typeof input === 'string' ? 'resource' : 'resource.id';
  if (!type || (typeof input !== 'string' && input.type !== type)) throw notFound(id, param);
  return { type, id, variant: typeof input === 'string' ? null : (input.variant ?? null) };
}

/** `404 resource_not_found` unless the live stream or asset exists in the scope (deleted ones do not). */
export async function assertResourceExists(db: Executor, scope: Scope, resource: Pick<AccessResource, 'type' | 'id'>): Promise<void> {
  if (!(await playableExists(db, scope, resource.type, resource.id))) throw notFound(resource.id, 'resource.id');
}

/** `404 resource_not_found` for a resource that does not exist in the caller's scope. */
export const resourceNotFound = (resource: Pick<AccessResource, 'id'>) => notFound(resource.id, 'resource.id');

/**
 * Which of several resources exist, each in its own scope (deleted ones do not): one query per kind, for
 * writes made together. Answers a flag per resource, in order.
 */
export async function resourcesExist(db: Executor, refs: ReadonlyArray<{ scope: Scope; resource: Pick<AccessResource, 'type' | 'id'> }>): Promise<boolean[]> {
  const idsOf = (type: AccessResourceType) => [...new Set(refs.filter((r) => r.resource.type === type).map((r) => r.resource.id))];
  const playables = await playableScopes(db, { ls: idsOf('ls'), ast: idsOf('ast') });
  const found = new Set(playables.map((r) => `${r.tenant_id}:${r.livemode}:${r.id}`));
  return refs.map(({ scope, resource }) => found.has(`${scope.tenantId}:${scope.livemode}:${resource.id}`));
}
