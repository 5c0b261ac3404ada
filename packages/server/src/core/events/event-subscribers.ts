import type { Transaction } from 'kysely';
import type { EventEnvelope } from '@svc/contract';
import type { DB } from '../../db/schema';
import type { Scope } from '../scope';

/** A `NOTIFY` sent with a write, so it reaches listeners exactly when the write commits. */
export interface Notification {
  channel: string;
  payload: string;
}

/** An event ready to record: its scope, its envelope, and a notification to send with it. */
export interface PreparedEvent {
  scope: Scope;
  envelope: EventEnvelope;
  notify?: Notification;
}

/** Learns of events inside the emitting transaction: what it writes commits or rolls back with the change. */
export type EventSubscriber = (trx: Transaction<DB>, events: readonly PreparedEvent[]) => Promise<void>;

const subscribers: EventSubscriber[] = [];

/**
 * Subscribes to every event emitted in this process. The module that records the event log and queues
 * webhook deliveries subscribes as it is set up; the same subscriber twice (several apps in one process) counts once.
 */
export function subscribeToEvents(subscriber: EventSubscriber): void {
  if (!subscribers.includes(subscriber)) subscribers.push(subscriber);
}

export async function publishEvents(trx: Transaction<DB>, events: readonly PreparedEvent[]): Promise<void> {
  if (subscribers.length === 0) throw new Error('an event was emitted but no module records events: is webhooks in the module list?');
  for (const subscriber of subscribers) await subscriber(trx, events);
}
