import type { Logger } from 'pino';
import type { AppContext } from '../../../core/context';
import type { Database } from '../../../db/database';
import type { MessageChannels } from '../channels/message-channels';
import { messageChannelsPart } from '../messaging-parts';
import { recipientRoles, type RecipientResolver } from '../outbox/recipient-roles';

/** What the outbox worker uses; tests build it with their own clock and adapters. */
export interface MessagingDeps {
  db: Database;
  log: Logger;
  /** The outbox clock: retry times, code expiry, the send cap's hour and the lease of an attempt. */
  clock: () => Date;
  channels: MessageChannels;
  /** A tenant's live sends per clock hour. */
  cap: number;
  /** How long one attempt may take before a crash is assumed and the message is tried again. */
  leaseMs: number;
  /** How often the scheduler looks for due retries. */
  schedulerIntervalMs: number;
  /** Who role-addressed notices go to. */
  roles: ReadonlyMap<string, RecipientResolver>;
}

export const messagingDeps = (ctx: AppContext): MessagingDeps => ({
  db: ctx.db,
  log: ctx.log,
  clock: () => (ctx.clock ? ctx.clock() : new Date()),
  channels: messageChannelsPart.of(ctx),
  cap: ctx.config.SVC_MESSAGES_PER_HOUR,
  leaseMs: ctx.config.SVC_MESSAGES_LEASE_SECONDS * 1000,
  schedulerIntervalMs: 1000,
  roles: recipientRoles(ctx),
});
