/** The date-shaped version carried by every event envelope and chosen per webhook endpoint. */
export const API_VERSION = '2026-11-01';

/** Versions a webhook endpoint may ask for; today only the current one exists. */
export const SUPPORTED_API_VERSIONS = [API_VERSION] as const;
