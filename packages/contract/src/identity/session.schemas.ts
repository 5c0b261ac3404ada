import { z } from 'zod';

export const PhoneSchema = z
  .string()
  .regex(/^\+[1-9][0-9]{6,14}$/, 'A phone number in E.164 form, e.g. +254712345678.')
  .describe('E.164, e.g. `+254712345678`.');
export const EmailSchema = z.string().max(254).email().describe('An email address.');

export const SessionUserSchema = z
  .object({
    id: z.string().describe('The person, `usr_`: one per verified phone or email across the service.'),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    customer: z.string().describe('The person\'s customer (`cus_`) in this tenant and environment.'),
    tenant: z.string(),
    livemode: z.boolean(),
  })
  .meta({ id: 'SessionUser' });

export const SessionSchema = z
  .object({
    access_token: z.string().describe('ES256 JWT, 15 minutes; verify against `/.well-known/jwks.json`.'),
    token_type: z.literal('bearer'),
    expires_in: z.number().int(),
    expires_at: z.number().int().describe('Unix seconds.'),
    refresh_token: z.string().describe('Single use: each refresh answers a new one.'),
    user: SessionUserSchema,
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof SessionSchema>;

export const CodeSentSchema = z
  .object({
    channel: z.enum(['whatsapp', 'sms', 'email']),
    expires_at: z.string(),
    resend_after: z.string().describe('The earliest time another code can be sent to this destination.'),
  })
  .meta({ id: 'CodeSent' });

export const MembershipSchema = z
  .object({
    member: z.string().describe('`mem_` id.'),
    organization: z.string().nullable().describe('`null` for tenant staff.'),
    role: z.string(),
    status: z.enum(['invited', 'active']),
  })
  .meta({ id: 'Membership' });

export const CurrentUserSchema = SessionUserSchema.extend({ memberships: z.array(MembershipSchema) }).meta({ id: 'CurrentUser' });

export const JwksSchema = z
  .object({ keys: z.array(z.record(z.string(), z.string())) })
  .meta({ id: 'Jwks', description: 'The public keys access tokens are signed with (current, previous and standby).' });
