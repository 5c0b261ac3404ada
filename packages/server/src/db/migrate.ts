import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as platformCore from './migrations/2026_11_21_001_platform_core';
import * as eventsWebhooks from './migrations/2026_11_21_002_events_webhooks';
import * as streamsLive from './migrations/2026_11_21_003_streams_live';
import * as streamsAssets from './migrations/2026_11_21_004_streams_assets';
import * as access from './migrations/2026_11_21_005_access';
import * as accessOpenSession from './migrations/2026_11_22_006_access_open_session';
import * as accessOpenSessionsAsDecided from './migrations/2026_11_23_01_access_open_sessions_as_decided';
import * as rateLimitBuckets from './migrations/2026_11_23_10_rate_limit_buckets';
import * as identity from './migrations/2026_11_23_20_identity';
import * as providerConfigs from './migrations/2026_11_23_30_provider_configs';
import * as mediaNetwork from './migrations/2026_11_23_40_media_network';
import * as ticketing from './migrations/2026_11_24_10_ticketing';
import * as messaging from './migrations/2026_11_24_50_messaging';
import * as creators from './migrations/2026_11_24_60_creators';
import * as attendees from './migrations/2026_11_24_80_attendees';
import * as organizerAnalytics from './migrations/2026_11_24_90_organizer_analytics';
import * as checkinCounts from './migrations/2026_11_24_91_checkin_counts';
import * as ticketCheckedIn from './migrations/2026_11_25_40_ticket_checked_in';
import * as checkinCountShards from './migrations/2026_11_25_41_checkin_count_shards';
import * as countPaidOrders from './migrations/2026_11_25_50_count_paid_orders';
import * as leaseWebhookSlots from './migrations/2026_11_26_10_lease_webhook_slots';
import * as checkinCountPerStatement from './migrations/2026_11_26_30_checkin_count_per_statement';
import * as accessSessionsHotHeartbeats from './migrations/2026_11_27_10_access_sessions_hot_heartbeats';
import * as capacityRoomFreed from './migrations/2026_11_27_20_capacity_room_freed';
import * as countPaidOrdersPlans from './migrations/2026_11_27_30_count_paid_orders_plans';
import * as pageViewSources from './migrations/2026_11_27_40_page_view_sources';
import * as ordersEventId from './migrations/2026_11_27_50_orders_event_id';
import * as listVersions from './migrations/2026_11_28_10_list_versions';
import * as encryptionKeyCheck from './migrations/2026_11_28_20_encryption_key_check';
import * as accessOpenSessionsIndexPlans from './migrations/2026_11_29_10_access_open_sessions_index_plans';
import * as whitelabel from './migrations/2026_12_02_45_whitelabel';
import * as leaseWebhookSlotsIndexPlans from './migrations/2026_11_29_20_lease_webhook_slots_index_plans';
import * as payments from './migrations/2026_12_02_20_payments';
import * as retentionIndexes from './migrations/2026_12_02_60_retention_indexes';
import * as requestLogs from './migrations/2026_12_02_80_request_logs';
import * as paymentInbound from './migrations/2026_12_03_10_payment_inbound';
import * as paymentAttemptKeys from './migrations/2026_12_03_20_payment_attempt_keys';
import * as promoters from './migrations/2026_12_03_60_promoters';
import * as paymentRetentionIndexes from './migrations/2026_12_03_90_payment_retention_indexes';
import * as bookingAddOns from './migrations/2026_12_04_20_booking_add_ons';
import * as guestOrders from './migrations/2026_12_04_21_guest_orders';
import * as payoutChecks from './migrations/2026_12_04_30_payout_checks';
import * as addOnSales from './migrations/2026_12_05_20_add_on_sales';
import * as orderKinds from './migrations/2026_12_03_30_order_kinds';
import * as fanbases from './migrations/2026_12_03_40_fanbases';
import * as subscriptionCheckout from './migrations/2026_12_03_41_subscription_checkout';
import * as commerce from './migrations/2026_12_03_50_commerce';
import * as productOrders from './migrations/2026_12_03_51_product_orders';
import * as contentGates from './migrations/2026_12_04_10_content_gates';
import * as savedPaymentMethods from './migrations/2026_12_05_10_saved_payment_methods';
import * as eventGates from './migrations/2026_12_05_11_event_gates';
import * as mediaNetworkAddress from './migrations/2026_12_05_55_media_network_address';
import * as variantRoomFreed from './migrations/2026_12_06_20_variant_room_freed';

/** Ordered by name; a migration never changes after it lands. */
const migrations: Record<string, Migration> = {
  '2026_11_21_001_platform_core': platformCore,
  '2026_11_21_002_events_webhooks': eventsWebhooks,
  '2026_11_21_003_streams_live': streamsLive,
  '2026_11_21_004_streams_assets': streamsAssets,
  '2026_11_21_005_access': access,
  '2026_11_22_006_access_open_session': accessOpenSession,
  '2026_11_23_01_access_open_sessions_as_decided': accessOpenSessionsAsDecided,
  '2026_11_23_10_rate_limit_buckets': rateLimitBuckets,
  '2026_11_23_20_identity': identity,
  '2026_11_23_30_provider_configs': providerConfigs,
  '2026_11_23_40_media_network': mediaNetwork,
  '2026_11_24_10_ticketing': ticketing,
  '2026_11_24_50_messaging': messaging,
  '2026_11_24_60_creators': creators,
  '2026_11_24_80_attendees': attendees,
  '2026_11_24_90_organizer_analytics': organizerAnalytics,
  '2026_11_24_91_checkin_counts': checkinCounts,
  '2026_11_25_40_ticket_checked_in': ticketCheckedIn,
  '2026_11_25_41_checkin_count_shards': checkinCountShards,
  '2026_11_25_50_count_paid_orders': countPaidOrders,
  '2026_11_26_10_lease_webhook_slots': leaseWebhookSlots,
  '2026_11_26_30_checkin_count_per_statement': checkinCountPerStatement,
  '2026_11_27_10_access_sessions_hot_heartbeats': accessSessionsHotHeartbeats,
  '2026_11_27_20_capacity_room_freed': capacityRoomFreed,
  '2026_11_27_30_count_paid_orders_plans': countPaidOrdersPlans,
  '2026_11_27_40_page_view_sources': pageViewSources,
  '2026_11_27_50_orders_event_id': ordersEventId,
  '2026_11_28_10_list_versions': listVersions,
  '2026_11_28_20_encryption_key_check': encryptionKeyCheck,
  '2026_11_29_10_access_open_sessions_index_plans': accessOpenSessionsIndexPlans,
  '2026_11_29_20_lease_webhook_slots_index_plans': leaseWebhookSlotsIndexPlans,
  '2026_12_02_20_payments': payments,
  '2026_12_02_45_whitelabel': whitelabel,
  '2026_12_02_60_retention_indexes': retentionIndexes,
  '2026_12_02_80_request_logs': requestLogs,
  '2026_12_03_10_payment_inbound': paymentInbound,
  '2026_12_03_20_payment_attempt_keys': paymentAttemptKeys,
  '2026_12_03_30_order_kinds': orderKinds,
  '2026_12_03_40_fanbases': fanbases,
  '2026_12_03_41_subscription_checkout': subscriptionCheckout,
  '2026_12_03_50_commerce': commerce,
  '2026_12_03_51_product_orders': productOrders,
  '2026_12_03_60_promoters': promoters,
  '2026_12_03_90_payment_retention_indexes': paymentRetentionIndexes,
  '2026_12_04_10_content_gates': contentGates,
  '2026_12_04_20_booking_add_ons': bookingAddOns,
  '2026_12_04_21_guest_orders': guestOrders,
  '2026_12_04_30_payout_checks': payoutChecks,
  '2026_12_05_10_saved_payment_methods': savedPaymentMethods,
  '2026_12_05_11_event_gates': eventGates,
  '2026_12_05_20_add_on_sales': addOnSales,
  '2026_12_05_55_media_network_address': mediaNetworkAddress,
  '2026_12_06_20_variant_room_freed': variantRoomFreed,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The migrations this build knows that the database has not run (all of them on an empty database). */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const infos = await new Migrator({ db, provider }).getMigrations();
  return infos.filter((m) => !m.executedAt).map((m) => m.name);
}
