import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null, string | null>;

/** A ticketed event (the spec's "event"; the event log's envelopes live in `event_log`). */
export interface TicketedEventsTable {
  id: Generated<string>;
  tenant_id: string;
  livemode: boolean;
  organization_id: string;
  name: string;
  slug: string;
  description: string | null;
  starts_at: Date;
  ends_at: Date;
  timezone: string;
  venue: NullableJson<Record<string, unknown>>;
  capacity: number | null;
  currency: string;
  requires_approval: Generated<boolean>;
  hold_minutes: Generated<number>;
  live_stream_id: string | null;
  /** Booking restricted to the organization's fanbase members (`members`) or to `gate_tier_ids`; `null`: anyone. */
  gate_type: ColumnType<'members' | 'tiers' | null, 'members' | 'tiers' | null | undefined, 'members' | 'tiers' | null>;
  gate_tier_ids: Generated<string[]>;
  status: Generated<'draft' | 'published' | 'cancelled' | 'completed'>;
  published_at: Date | null;
  cancelled_at: Date | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ExtraField {
  id: string;
  name: string;
  type: 'text' | 'select' | 'checkbox';
  required: boolean;
  options: string[] | null;
}

export interface TicketTypesTable {
  id: Generated<string>;
  tenant_id: string;
  livemode: boolean;
  event_id: string;
  name: string;
  description: string | null;
  pricing_mode: 'fixed' | 'name_your_price';
  price: number | null;
  flexipay_min_price: number | null;
  flexipay_max_price: number | null;
  quantity: number | null;
  min_per_order: Generated<number>;
  max_per_order: Generated<number>;
  sale_starts_at: Date | null;
  sale_ends_at: Date | null;
  allow_pay_later: Generated<boolean>;
  requires_approval: Generated<boolean>;
  admits: Generated<number>;
  extra_fields: Json<ExtraField[]>;
  stream_limits: NullableJson<Record<string, unknown>>;
  status: Generated<'active' | 'paused'>;
  position: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EventSlotsTable {
  id: Generated<string>;
  tenant_id: string;
  livemode: boolean;
  event_id: string;
  starts_at: Date;
  ends_at: Date;
  capacity: number | null;
  created_at: Timestamp;
}

export interface CouponsTable {
  id: Generated<string>;
  tenant_id: string;
  livemode: boolean;
  event_id: string;
  code: string;
  discount_type: 'percent' | 'fixed';
  value: number;
  ticket_type_ids: string[] | null;
  max_uses: number | null;
  uses_held: Generated<number>;
  uses_redeemed: Generated<number>;
  valid_from: Date | null;
  valid_until: Date | null;
  active: Generated<boolean>;
  /** A promoter-bound coupon attributes its orders to this `prm_`. */
  promoter_id: Generated<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A limit a booking takes seats from: the event, a slot, a ticket type, or a ticket type within a slot. */
export interface CapacityBucketsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  event_id: string;
  slot_id: string | null;
  ticket_type_id: string | null;
  capacity: number | null;
  held: Generated<number>;
  sold: Generated<number>;
}

export type OrderStatus = 'pending' | 'paid' | 'expired' | 'cancelled' | 'refunded' | 'partially_refunded';

export interface OrdersTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  code: string;
  status: OrderStatus;
  organization_id: string;
  /** `ticket`, `product` or `subscription` (products-api § 3.1). */
  kind: Generated<OrderKind>;
  /** Ticket orders only (`null` for the other kinds). */
  event_id: string | null;
  ticket_type_id: string | null;
  slot_id: string | null;
  quantity: number;
  /** Tickets issued (quantity × admits): what the order takes from each bucket. */
  seats: number;
  bucket_ids: string[];
  seats_state: Generated<'held' | 'sold' | 'released'>;
  coupon_id: string | null;
  coupon_state: 'held' | 'redeemed' | 'released' | null;
  amount_total: number;
  amount_discount: Generated<number>;
  amount_shipping: Generated<number>;
  /** total + discount − shipping, kept by the database. */
  amount_subtotal: ColumnType<number, never, never>;
  /** A ticket order's add-ons: its product lines' total plus shipping; `null` without add-ons. */
  amount_add_ons: ColumnType<number | null, number | null | undefined, number | null>;
  /** Of `amount_refunded`, what went back for the add-ons (the analytics count it apart from the tickets'). */
  amount_add_ons_refunded: Generated<number>;
  /** The `sub_` of a subscription order. */
  subscription_id: ColumnType<string | null, string | null | undefined, string | null>;
  amount_paid: Generated<number>;
  amount_refunded: Generated<number>;
  /** Refunds still on their way back: not refundable again. */
  amount_refund_pending: Generated<number>;
  currency: string;
  buyer_name: string | null;
  buyer_email: string | null;
  buyer_phone: string | null;
  customer_id: string | null;
  redirect_url: string | null;
  pay_later: Generated<boolean>;
  comp: Generated<boolean>;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  expires_at: Date | null;
  paid_at: Date | null;
  cancelled_at: Date | null;
  expired_at: Date | null;
  /** The promoter who brought the order (products-api § 4.3), fixed when it is made; written by the promoters module's hook. */
  attribution: Json<OrderAttribution | null> | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type OrderKind = 'ticket' | 'product' | 'subscription';

/** A line of an order (`li_`); a ticket order's one line has the order's id with `li_` for `ord_`. */
export interface LineItemsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  order_id: string;
  position: Generated<number>;
  kind: OrderKind;
  description: string;
  quantity: number;
  unit_amount: number;
  amount_subtotal: number;
  amount_discount: Generated<number>;
  amount_total: number;
  currency: string;
  quantity_refunded: Generated<number>;
  ticket: ColumnType<{ event: string; ticket_type: string; event_slot: string | null } | null, string | null | undefined, string | null>;
  product: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  subscription: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** `orders.attribution`: as the API shows it. */
export interface OrderAttribution {
  promoter: string;
  tracking_code: string | null;
  assignment: string;
  source: 'coupon' | 'link';
  touched_at: string;
}

export interface TicketsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  order_id: string;
  event_id: string;
  ticket_type_id: string;
  slot_id: string | null;
  position: number;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  extra_data: Json<Record<string, unknown>>;
  customer_id: string | null;
  secret_hash: string;
  secret_sealed: string;
  status: 'pending_payment' | 'valid' | 'void';
  review_status: 'pending' | 'approved' | 'rejected' | null;
  entitlement_id: string | null;
  /** The spec's attendee uuid (`{attendee}` in the organizer's routes). */
  attendee_id: Generated<string>;
  review_reason: Generated<string | null>;
  reviewed_at: Generated<Date | null>;
  invite_status: Generated<DeliveryStatus>;
  ticket_delivery_status: Generated<DeliveryStatus>;
  resent_at: Generated<Date | null>;
  /** The last accepted scan was an entry (kept by the check-in's conditional update). */
  checked_in: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type DeliveryStatus = 'not_requested' | 'queued' | 'delivered' | 'failed';

/** A scan at the door, failed ones too. */
export interface CheckinsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  event_id: string;
  ticket_id: string | null;
  type: 'entry' | 'exit';
  status: 'ok' | 'error';
  reason: CheckinReason | null;
  nonce: string | null;
  forced: Generated<boolean>;
  scanned_at: Date;
  created_at: Timestamp;
}

export type CheckinReason = 'invalid' | 'unpaid' | 'cancelled' | 'unapproved' | 'already_redeemed' | 'invalid_time';

export interface CheckoutSessionsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  order_id: string;
  amount: number;
  currency: string;
  status: Generated<'open' | 'complete' | 'expired'>;
  redirect_url: string | null;
  expires_at: Date;
  completed_at: Date | null;
  created_at: Timestamp;
}

export interface PaymentsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  order_id: string;
  checkout_session_id: string | null;
  method: 'mobile_money' | 'card' | 'comp';
  amount: number;
  currency: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  failure_code: string | null;
  /** The last digits of the phone or card, never the whole number. */
  payer_hint: string | null;
  created_at: Timestamp;
  settled_at: Date | null;
  provider: 'simulated' | 'mpesa' | 'paystack' | 'stripe' | null;
  provider_config_id: string | null;
  provider_reference: string | null;
  provider_receipt: string | null;
  failure_message: string | null;
  late: Generated<boolean>;
  next_action: Json<unknown> | null;
  /** When reconciliation asks the provider next; `null` once final. */
  next_check_at: Date | null;
  checks: Generated<number>;
  organization_id: string | null;
  customer_id: string | null;
  amount_refunded: Generated<number>;
  metadata: ColumnType<Record<string, string>, string | undefined, string>;
  updated_at: Timestamp;
  /** A live checkout's `Idempotency-Key`, unique per checkout session. */
  idempotency_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** The provider's reusable card reference learnt from this payment, sealed; never in a response, event or log. */
  saved_method_sealed: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface RefundsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  order_id: string;
  amount: number;
  currency: string;
  reason: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  failure_code: string | null;
  created_at: Timestamp;
  settled_at: Date | null;
  payment_id: string | null;
  source: Generated<'provider' | 'manual' | 'external'>;
  provider: string | null;
  provider_config_id: string | null;
  provider_reference: string | null;
  failure_message: string | null;
  next_check_at: Date | null;
  /** Whether the order counts this money (a refund of a duplicate or refused late payment is outside its totals). */
  order_counted: Generated<boolean>;
  metadata: ColumnType<Record<string, string>, string | undefined, string>;
  updated_at: Timestamp;
  /** `[{line_item, quantity}]`: the units this refund returns (held on the lines while it is pending). */
  line_items: ColumnType<{ line_item: string; quantity: number }[], string | undefined, string>;
  /** Whether the returned units go back to stock when the refund succeeds. */
  restock: Generated<boolean>;
}

export interface EventPageViewsTable {
  id: Generated<number>;
  tenant_id: string;
  livemode: boolean;
  organization_id: string;
  event_id: string;
  visitor_hash: string;
  viewed_at: Timestamp;
  /** Where the visitor came from (the public read's `source`); null: direct. */
  source: string | null;
}

export interface TicketingTables {
  ticketed_events: TicketedEventsTable;
  ticket_types: TicketTypesTable;
  event_slots: EventSlotsTable;
  coupons: CouponsTable;
  capacity_buckets: CapacityBucketsTable;
  orders: OrdersTable;
  line_items: LineItemsTable;
  tickets: TicketsTable;
  checkout_sessions: CheckoutSessionsTable;
  payments: PaymentsTable;
  refunds: RefundsTable;
  event_page_views: EventPageViewsTable;
  checkins: CheckinsTable;
}
