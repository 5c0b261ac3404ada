import type { CursorPageQuery } from '@svc/contract';
import { z } from 'zod';
import { CreatePromoterSchema, UpdatePromoterSchema } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db-errors';
import { ApiError } from '../../../core/errors';
import { newId } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { PromoterRow } from '../../../db/promoters.schema';
import { findCustomer, getOrganizationRow } from '../../identity';
import { readableOrganizations, requirePromoterPermission, type OrganizerCaller, type PromoterPermission } from '../promoters-access';
import * as repo from './promoters.repository';
import { presentPromoter, presentPromoters } from './promoters.serializer';

type CreateInput = z.infer<typeof CreatePromoterSchema>;
type UpdateInput = z.infer<typeof UpdatePromoterSchema>;

const invalid = (param: string, message: string) => ApiError.of('validation_failed', { param, message, details: { [param]: [message] } });
const externalTaken = () => ApiError.of('external_id_taken', { param: 'external_id' });

async function customerIdOf(ctx: AppContext, scope: Scope, id: string | null | undefined): Promise<string | null | undefined> {
  if (id === undefined || id === null) return id;
  const customer = await findCustomer(ctx.db, scope, id);
  if (!customer) throw invalid('customer', `No such customer: '${id}'.`);
  return customer.id;
}

/** The promoter, once the caller may act on its organization's promoters (another tenant's or environment's is a 404). */
export async function getPromoterRow(ctx: AppContext, caller: OrganizerCaller, id: string, permission: PromoterPermission): Promise<PromoterRow> {
  const row = await repo.findPromoter(ctx.db, caller.scope, id);
  if (!row) throw ApiError.notFound('promoter', id);
  await requirePromoterPermission(ctx, caller, row.organization_id, permission);
  return row;
}

export async function createPromoter(ctx: AppContext, caller: OrganizerCaller, input: CreateInput) {
  const scope = caller.scope;
  const org = await getOrganizationRow(ctx.db, scope, input.organization).catch((err: unknown) => {
    if (err instanceof ApiError && err.code === 'resource_not_found') throw invalid('organization', `No such organization: '${input.organization}'.`);
    throw err;
  });
  await requirePromoterPermission(ctx, caller, org.id, 'promoters:write');
  if (!input.email && !input.phone) throw invalid('email', 'Give `email` or `phone`: the promoter signs in with one.');
  try {
    const row = await repo.insertPromoter(ctx.db, scope, {
      id: newId('promoter'),
      organization_id: org.id,
      kind: input.kind ?? 'person',
      name: input.name,
      email: input.email?.toLowerCase() ?? null,
      phone: input.phone ?? null,
      customer_id: (await customerIdOf(ctx, scope, input.customer)) ?? null,
      status: 'active',
      external_id: input.external_id ?? null,
      metadata: JSON.stringify(input.metadata ?? {}),
    });
    return presentPromoter(ctx.db, scope, row);
  } catch (err) {
    if (isUniqueViolation(err, 'promoters_external_id')) throw externalTaken();
    throw err;
  }
}

export async function updatePromoter(ctx: AppContext, caller: OrganizerCaller, id: string, input: UpdateInput) {
  const row = await getPromoterRow(ctx, caller, id, 'promoters:write');
  const email = input.email === undefined ? row.email : (input.email?.toLowerCase() ?? null);
  const phone = input.phone === undefined ? row.phone : input.phone;
  if (!email && !phone) throw invalid('email', 'A promoter keeps an `email` or a `phone`.');
  try {
    const updated = await repo.updatePromoter(ctx.db, caller.scope, row.id, {
      ...(input.kind !== undefined && { kind: input.kind }),
      ...(input.name !== undefined && { name: input.name }),
      ...(input.status !== undefined && { status: input.status }),
      ...(input.external_id !== undefined && { external_id: input.external_id }),
      ...(input.metadata !== undefined && { metadata: JSON.stringify(input.metadata) }),
      ...(input.customer !== undefined && { customer_id: await customerIdOf(ctx, caller.scope, input.customer) }),
      email,
      phone,
    });
    return presentPromoter(ctx.db, caller.scope, updated);
  } catch (err) {
    if (isUniqueViolation(err, 'promoters_external_id')) throw externalTaken();
    throw err;
  }
}

export async function retrievePromoter(ctx: AppContext, caller: OrganizerCaller, id: string) {
  return presentPromoter(ctx.db, caller.scope, await getPromoterRow(ctx, caller, id, 'promoters:read'));
}

export async function retrievePromoterByExternalId(ctx: AppContext, caller: OrganizerCaller, externalId: string) {
  const row = await repo.findPromoterByExternalId(ctx.db, caller.scope, externalId);
  if (!row) throw ApiError.notFound('promoter');
  await requirePromoterPermission(ctx, caller, row.organization_id, 'promoters:read');
  return presentPromoter(ctx.db, caller.scope, row);
}

export async function listPromoters(ctx: AppContext, caller: OrganizerCaller, f: Omit<repo.PromoterFilters, 'organizations'>, page: CursorPageQuery) {
  const organizations = await readableOrganizations(ctx, caller);
  const listed = await repo.listPromoters(ctx.db, caller.scope, { ...f, organizations }, page);
  return { ...listed, data: await presentPromoters(ctx.db, caller.scope, listed.data) };
}

/** The ids of the organizations' promoters (a member's readable set, for lists of the ledger and payouts). */
export async function promoterIdsOfOrganizations(ctx: AppContext, scope: Scope, organizations: readonly string[]): Promise<string[]> {
  return (await repo.listPromoterIds(ctx.db, scope, organizations)).map((p) => p.id);
}

/** The promoters a signed-in customer is (linking those whose email or phone is the customer's). */
export const promotersOfCustomer = (ctx: AppContext, scope: Scope, customer: { id: string; email: string | null; phone: string | null }) =>
  repo.promotersOfCustomer(ctx.db, scope, customer);
