import type { Content } from '@svc/contract';
import type { ContentRow } from '../../../db/creators.schema';
import { gateOf } from './content-gates';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function serializeContent(row: ContentRow): Content {
  return {
    id: row.id,
    object: 'content',
    livemode: row.livemode,
    organization: row.organization_id,
    type: row.type,
    title: row.title,
    slug: row.slug,
    description: row.description,
    trailer: row.trailer_asset_id,
    items: row.item_asset_ids,
    visibility: row.visibility,
    price: row.price_amount === null ? null : { amount: row.price_amount, currency: row.price_currency! },
    gate: gateOf(row),
    status: row.status,
    review_note: row.review_note,
    requested_items: row.requested_items,
    submitted_at: iso(row.submitted_at),
    approved_at: iso(row.approved_at),
    published_at: iso(row.published_at),
    rejected_at: iso(row.rejected_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
