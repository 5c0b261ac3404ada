import { z } from 'zod';

export const PlaybackPolicyEnum = z.enum(['signed', 'public']);

/** How a live stream or asset lists its playback ids. */
export const PlaybackIdRefSchema = z
  .object({ id: z.string().describe('Starts `pb_`.'), policy: PlaybackPolicyEnum })
  .meta({ id: 'PlaybackIdRef' });

export const PlaybackIdSchema = z
  .object({
    id: z.string().describe('Starts `pb_`. Public: it goes into playback addresses.'),
    object: z.literal('playback_id'),
    livemode: z.boolean(),
    policy: PlaybackPolicyEnum.describe('`signed`: only a holder of a signed playback token can play; `public`: anyone with the link.'),
    resource: z.string().describe('The live stream (`ls_`) or asset (`ast_`) it plays.'),
    created_at: z.string(),
  })
  .meta({ id: 'PlaybackId' });
export type PlaybackId = z.infer<typeof PlaybackIdSchema>;

export const PlaybackLinkSchema = z
  .object({
    object: z.literal('playback_link'),
    playback_id: z.string(),
    url: z.string().describe('The HLS master playlist to open in a player.'),
    expires_at: z.string().nullable().describe('When the signed link stops working; `null` for a public playback id.'),
  })
  .meta({ id: 'PlaybackLink' });
export type PlaybackLink = z.infer<typeof PlaybackLinkSchema>;

export const CreatePlaybackIdSchema = z
  .object({
    resource: z.string().min(1).max(255).describe('A live stream or asset id.'),
    policy: PlaybackPolicyEnum.optional().describe('Default `signed`.'),
  })
  .meta({ id: 'CreatePlaybackIdRequest' });

export const SIGNING_KEY_LIMITS = { maxActivePerEnvironment: 1000 } as const;

export const SigningKeySchema = z
  .object({
    id: z.string().describe('Starts `psk_`.'),
    object: z.literal('signing_key'),
    livemode: z.boolean(),
    key_id: z.string().describe('Goes in the `kid` header of caller-signed playback tokens (the same value as `id`).'),
    status: z.enum(['active', 'revoked']),
    fingerprint: z.string().describe('SHA-256 of the public key (DER), hex.'),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    private_key: z
      .string()
      .optional()
      .describe('RSA private key, PKCS#8 PEM. Returned once, on creation; the service keeps only the public key.'),
  })
  .meta({ id: 'SigningKey' });
export type SigningKey = z.infer<typeof SigningKeySchema>;
