import type { ColumnType, Generated, Selectable } from 'kysely';
import type { EntitlementLimitsColumn } from './access.schema';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | undefined, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

export interface ProductGrantColumn {
  type: 'ls' | 'ast';
  id: string;
}

export interface ProductsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  organization_id: string;
  name: string;
  description: string | null;
  kind: 'physical' | 'digital';
  status: 'draft' | 'published' | 'archived';
  currency: string;
  images: Json<string[]>;
  grants: Json<ProductGrantColumn[]>;
  grant_duration_days: number | null;
  grant_limits: NullableJson<EntitlementLimitsColumn>;
  max_per_order: number;
  published_at: Date | null;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProductVariantsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  product_id: string;
  name: string;
  sku: string;
  options: Json<Record<string, string>>;
  price: number;
  /** Units on hand; `null` is unlimited. */
  stock: number | null;
  /** Units held by pending orders. */
  reserved: Generated<number>;
  /** Units paid for, net of restocks. */
  sold: Generated<number>;
  active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CommerceSettingsTable {
  tenant_id: string;
  livemode: boolean;
  organization_id: string;
  hold_minutes: Generated<number>;
  shipping_fee: Generated<number>;
  pickup_enabled: Generated<boolean>;
  pickup_instructions: string | null;
  updated_at: Timestamp;
}

export type FulfillmentStatus = 'unfulfilled' | 'fulfilled' | 'shipped' | 'delivered' | 'returned';

export interface ShippingAddressColumn {
  name: string;
  phone: string;
  line1: string;
  line2: string | null;
  city: string;
  region: string | null;
  postal_code: string | null;
  country: string;
  instructions: string | null;
}

/** Commerce's part of a product order: its stock's state, shipping and fulfilment. */
export interface ProductOrdersTable {
  order_id: string;
  tenant_id: string;
  livemode: boolean;
  organization_id: string;
  stock_state: Generated<'held' | 'sold' | 'released'>;
  /** Units per variant, summed: what the order holds, sells and gives back. */
  lines: Json<{ variant: string; quantity: number }[]>;
  shipping_method: 'delivery' | 'pickup' | null;
  shipping_address: NullableJson<ShippingAddressColumn>;
  fulfillment_status: Generated<FulfillmentStatus>;
  carrier: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  note: string | null;
  fulfilled_at: Date | null;
  shipped_at: Date | null;
  delivered_at: Date | null;
  returned_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CommerceTables {
  products: ProductsTable;
  product_variants: ProductVariantsTable;
  commerce_settings: CommerceSettingsTable;
  product_orders: ProductOrdersTable;
}

export type ProductRow = Selectable<ProductsTable>;
export type VariantRow = Selectable<ProductVariantsTable>;
export type CommerceSettingsRow = Selectable<CommerceSettingsTable>;
export type ProductOrderRow = Selectable<ProductOrdersTable>;
