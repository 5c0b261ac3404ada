import type { ColumnType, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | undefined, string>;

export interface FanbasesTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  organization_id: string;
  name: string;
  description: string | null;
  status: 'active' | 'archived';
  currency: string;
  grace_period_days: number;
  renewal_notice_hours: number;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TierGrant {
  type: 'ls' | 'ast' | 'cnt';
  id: string;
}

export interface MembershipTiersTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  fanbase_id: string;
  name: string;
  description: string | null;
  price: number;
  currency: string;
  interval: 'month' | 'year' | 'one_time' | null;
  benefits: Json<string[]>;
  grants: Json<TierGrant[]>;
  limits: Json<Record<string, unknown> | null>;
  max_members: number | null;
  status: 'draft' | 'published' | 'archived';
  position: number;
  subscribed_at: Date | null;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FanbaseMembershipsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  fanbase_id: string;
  organization_id: string;
  customer: string;
  status: 'active' | 'left';
  source: 'join' | 'subscription' | 'comp';
  tier_id: string | null;
  comp_tier_id: string | null;
  subscription_id: string | null;
  ends_at: Date | null;
  joined_at: Timestamp;
  left_at: Date | null;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SubscriptionsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  fanbase_id: string;
  organization_id: string;
  tier_id: string;
  customer: string;
  membership_id: string;
  status: 'incomplete' | 'active' | 'past_due' | 'cancelled' | 'expired';
  amount: number;
  currency: string;
  interval: 'month' | 'year' | 'one_time';
  current_period_start: Date | null;
  current_period_end: Date | null;
  cancel_at_period_end: boolean;
  pending_tier_id: string | null;
  renewal_mode: 'automatic' | 'prompt' | 'none';
  /** `automatic` mode: the `pay_` whose saved card (sealed by payments) each renewal charges. */
  renewal_payment_id: ColumnType<string | null, string | null | undefined, string | null>;
  phone: string | null;
  next_attempt_at: Date | null;
  attempts: number;
  latest_order_id: string | null;
  checkout_url: string | null;
  grace_ends_at: Date | null;
  cancelled_at: Date | null;
  ended_at: Date | null;
  cancellation_reason: 'customer' | 'organizer' | 'refund' | 'member_removed' | null;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FanbasesTables {
  fanbases: FanbasesTable;
  membership_tiers: MembershipTiersTable;
  fanbase_memberships: FanbaseMembershipsTable;
  subscriptions: SubscriptionsTable;
}

export type FanbaseRow = Selectable<FanbasesTable>;
export type TierRow = Selectable<MembershipTiersTable>;
export type MembershipRow = Selectable<FanbaseMembershipsTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
