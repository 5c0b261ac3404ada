import type { ColumnType, Generated, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | undefined, string>;

export interface PromotersTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  organization_id: string;
  kind: 'person' | 'organization';
  name: string;
  email: string | null;
  phone: string | null;
  customer_id: string | null;
  status: 'active' | 'disabled';
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PromoterAssignmentsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  promoter_id: string;
  target_type: 'event' | 'product' | 'organization';
  target_id: string;
  ticket_type_ids: string[] | null;
  commission_type: 'percent' | 'fixed';
  basis_points: number | null;
  amount: number | null;
  max_per_order: number | null;
  active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TrackingCodesTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  promoter_id: string;
  code: string;
  target_type: 'event' | 'product' | null;
  target_id: string | null;
  active: Generated<boolean>;
  clicks: Generated<number>;
  orders: Generated<number>;
  created_at: Timestamp;
}

export interface TrackingCodeClicksTable {
  tracking_code_id: string;
  visitor: string;
  day: string;
}

export interface PromoterSettingsTable {
  tenant_id: string;
  livemode: boolean;
  attribution_window_days: Generated<number>;
  refund_window_days: Generated<number>;
  link_template: string | null;
  self_referral: Generated<'ignore' | 'allow'>;
  updated_at: Timestamp;
}

export type CommissionStatus = 'pending' | 'approved' | 'paid' | 'reversed';

export interface CommissionsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  promoter_id: string;
  assignment_id: string;
  order_id: string;
  type: 'commission' | 'reversal';
  amount: number;
  currency: string;
  status: CommissionStatus;
  available_at: Date;
  reverses: string | null;
  payout_id: string | null;
  approved_at: Date | null;
  paid_at: Date | null;
  created_at: Timestamp;
}

export interface PayoutsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  promoter_id: string;
  organization_id: string;
  amount: number;
  currency: string;
  method: 'manual' | 'mpesa_b2c';
  status: 'pending' | 'paid' | 'failed';
  reference: string | null;
  phone: string | null;
  provider_config_id: string | null;
  provider_reference: string | null;
  failure_code: string | null;
  failure_message: string | null;
  paid_at: Date | null;
  /** The one B2C request was made (or is being made) at this time. */
  sent_at: Generated<Date | null>;
  /** When a pending provider payout is next asked about. */
  next_check_at: Generated<Date | null>;
  metadata: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PromoterSalesTable {
  order_id: string;
  tenant_id: string;
  livemode: boolean;
  promoter_id: string;
  organization_id: string;
  tracking_code_id: string | null;
  target_type: string;
  target_id: string;
  items: number;
  gross: number;
  net: number;
  commission: number;
  currency: string;
  order_code: string;
  order_kind: string;
  order_status: string;
  order_created_at: Date;
  created_at: Timestamp;
}

export interface PromotersTables {
  promoters: PromotersTable;
  promoter_assignments: PromoterAssignmentsTable;
  tracking_codes: TrackingCodesTable;
  tracking_code_clicks: TrackingCodeClicksTable;
  promoter_settings: PromoterSettingsTable;
  commissions: CommissionsTable;
  payouts: PayoutsTable;
  promoter_sales: PromoterSalesTable;
}

export type PromoterRow = Selectable<PromotersTable>;
export type AssignmentRow = Selectable<PromoterAssignmentsTable>;
export type TrackingCodeRow = Selectable<TrackingCodesTable>;
export type CommissionRow = Selectable<CommissionsTable>;
export type PayoutRow = Selectable<PayoutsTable>;
