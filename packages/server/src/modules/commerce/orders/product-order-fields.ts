import type { ProductOrderRow } from '../../../db/commerce.schema';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The fields commerce adds to a product order as shown (products-api § 3.1, 3.4). */
export function serializeProductOrderFields(row: ProductOrderRow) {
  return {
    shipping_method: row.shipping_method,
    shipping_address: row.shipping_address ?? null,
    fulfillment_status: row.fulfillment_status,
    fulfillment: {
      carrier: row.carrier,
      tracking_number: row.tracking_number,
      tracking_url: row.tracking_url,
      note: row.note,
      fulfilled_at: iso(row.fulfilled_at),
      shipped_at: iso(row.shipped_at),
      delivered_at: iso(row.delivered_at),
      returned_at: iso(row.returned_at),
    },
  };
}
