import type { ColumnType, Generated, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | undefined, string>;

/** A creator organization's capsule profile: one row per organization, made on first use. */
export interface CapsuleProfilesTable {
  organization_id: string;
  id: string;
  tenant_id: string;
  livemode: boolean;
  tagline: string | null;
  bio: string | null;
  creator_type: string | null;
  category: string | null;
  hero_media: Json<string[]>;
  links: Json<string[]>;
  external_storefront_url: string | null;
  join_enabled: Generated<boolean>;
  subscription_enabled: Generated<boolean>;
  is_public: Generated<boolean>;
  avatar_asset_id: string | null;
  avatar_url: string | null;
  cover_asset_id: string | null;
  cover_url: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One row per customer following a capsule: the primary key makes a second follow a no-op. */
export interface CapsuleFollowersTable {
  organization_id: string;
  customer: string;
  tenant_id: string;
  livemode: boolean;
  created_at: Timestamp;
}

export interface ContentsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  organization_id: string;
  type: 'drop' | 'video' | 'post';
  title: string;
  slug: string;
  description: string | null;
  trailer_asset_id: string | null;
  item_asset_ids: string[];
  visibility: 'public' | 'unlisted';
  price_amount: number | null;
  price_currency: string | null;
  gate_type: 'members' | 'tiers' | null;
  gate_tier_ids: Generated<string[]>;
  status: Generated<'draft' | 'pending_review' | 'changes_requested' | 'approved' | 'published' | 'rejected'>;
  review_note: string | null;
  requested_items: Generated<string[]>;
  submitted_at: Date | null;
  approved_at: Date | null;
  published_at: Date | null;
  rejected_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContentApprovalsTable {
  id: string;
  tenant_id: string;
  livemode: boolean;
  content_id: string;
  action: 'submitted' | 'approved' | 'published' | 'rejected' | 'changes_requested';
  actor_type: 'user' | 'api_key';
  actor_id: string;
  note: string | null;
  items: string[];
  created_at: Timestamp;
}

export interface CreatorsTables {
  capsule_profiles: CapsuleProfilesTable;
  capsule_followers: CapsuleFollowersTable;
  contents: ContentsTable;
  content_approvals: ContentApprovalsTable;
}

export type CapsuleProfileRow = Selectable<CapsuleProfilesTable>;
export type ContentRow = Selectable<ContentsTable>;
export type ContentApprovalRow = Selectable<ContentApprovalsTable>;
