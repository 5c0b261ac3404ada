import { z } from 'zod';
import { ACCESS_LIMITS } from './access-limits';
import { ContactHashSchema, CountryCodeSchema, CustomerSchema, HostSchema, RESOURCE_TYPES } from './entitlements.schemas';

export const SESSION_STATES = ['active', 'ended'] as const;
export const SESSION_END_REASONS = ['client', 'missed_heartbeats', 'replaced_by_newer_session', 'entitlement_inactive'] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

export const SessionResourceSchema = z
  .object({
    type: z.enum(RESOURCE_TYPES).describe('`ls` for a live stream, `ast` for an asset.'),
    id: z.string().min(1).max(255),
    variant: z.string().min(1).max(100).nullable().optional().describe('Your label for what is played (for example a language); kept and returned.'),
  })
  .meta({ id: 'SessionResource' });

export const OpenSessionSchema = z
  .object({
    resource: z
      .union([z.string().min(1).max(255), SessionResourceSchema])
      .describe('The live stream or asset: its id, or `{type, id, variant}`.'),
    customer: CustomerSchema.optional().describe('Required with a secret or restricted key (or `contact_hash`); omitted with a publishable key.'),
    contact_hash: ContactHashSchema.optional(),
    device_id: z.string().min(1).max(ACCESS_LIMITS.deviceId.maxLength).describe('A stable id of the viewer\'s device or browser.'),
    country: CountryCodeSchema.optional().describe('Server calls: the viewer\'s country. With a publishable key the token\'s `ctry` is used instead.'),
    domain: HostSchema.optional().describe('Server calls: the player page\'s host. With a publishable key the `Origin` host is used instead.'),
  })
  .meta({ id: 'OpenSessionRequest' });
export type OpenSessionInput = z.infer<typeof OpenSessionSchema>;

export const PlaybackSourceSchema = z
  .object({
    provider: z.string().describe('The video network; do not branch on it.'),
    url: z.string().describe('The playback link (HLS).'),
  })
  .meta({ id: 'PlaybackSource' });

export const SessionGrantSchema = z
  .object({
    sources: z.array(PlaybackSourceSchema).describe('In order: play the first, switch to the next after `failover.max_errors` fatal errors.'),
    failover: z.object({ max_errors: z.number().int(), window_seconds: z.number().int() }),
    heartbeat_interval: z.number().int().describe('Seconds between heartbeats.'),
    token_expires_at: z
      .string()
      .nullable()
      .describe('When the signed link stops working (session length plus 10 minutes); `null` for a public link without a token.'),
  })
  .meta({ id: 'SessionGrant' });
export type SessionGrant = z.infer<typeof SessionGrantSchema>;

export const AccessSessionSchema = z
  .object({
    id: z.string().describe('Starts `as_`.'),
    object: z.literal('access_session'),
    livemode: z.boolean(),
    entitlement: z.string(),
    customer: z.string().nullable(),
    contact_hash: z.string().nullable(),
    resource: z.object({ type: z.string(), id: z.string(), variant: z.string().nullable() }),
    device_id: z.string(),
    state: z.enum(SESSION_STATES),
    ended_reason: z.enum(SESSION_END_REASONS).nullable().describe('Why the session ended; `null` while `active`.'),
    expires_at: z.string().describe('When the session lapses unless a heartbeat comes first.'),
    heartbeat_interval: z.number().int(),
    grant: SessionGrantSchema.nullable().describe('How to play; a fresh one with every heartbeat; `null` once the session has ended.'),
    created_at: z.string(),
    ended_at: z.string().nullable(),
  })
  .meta({ id: 'AccessSession' });
export type AccessSession = z.infer<typeof AccessSessionSchema>;
