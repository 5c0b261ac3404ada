// The door other resources of the module use to tier rows; the repository stays this folder's own.
export { findTier, findTiersByIds, liveSubscriptionCount, publishedFreeTier, publishedTiers } from './tiers.repository';
