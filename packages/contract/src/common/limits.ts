/** Limits shared by every product, from the spec's Limits table. */
export const LIMITS = {
  metadata: { maxKeys: 50, maxKeyLength: 40, maxValueLength: 500 },
  pagination: { defaultLimit: 20, maxLimit: 100 },
  expansion: { maxDepth: 2 },
  externalId: { maxLength: 255 },
  idempotency: { maxKeyLength: 255, retentionHours: 24 },
  keyRoll: { maxExpiresInSeconds: 604_800 },
  keyCache: { maxSeconds: 60 },
  rateLimits: { secret: 100, publishable: 20, unauthenticatedPerIp: 20 },
} as const;
