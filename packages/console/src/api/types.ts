import type { OrderSchema, OrganizerAttendeeSchema, RefundSchema, ScanResultSchema, TicketedEventSchema, TicketTypeSchema } from '@svc/contract';
import type { z } from 'zod';

/** The API's objects, as the contract declares them. */
export type TicketedEvent = z.infer<typeof TicketedEventSchema>;
export type TicketType = z.infer<typeof TicketTypeSchema>;
export type Order = z.infer<typeof OrderSchema>;
export type Refund = z.infer<typeof RefundSchema>;
export type Attendee = z.infer<typeof OrganizerAttendeeSchema>;
export type ScanResult = z.infer<typeof ScanResultSchema>;
export type { Asset, Clip, LiveStream, Payment, PlaybackLink } from '@svc/contract';
