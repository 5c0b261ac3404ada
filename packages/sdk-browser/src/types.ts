import type { OpenSessionInput } from '@svc/contract';

// Shapes come from the contract (types only: nothing of it is bundled).
export type { AccessSession, SessionGrant as PlaybackGrant } from '@svc/contract';

/** A stream or asset id, or `{type, id, variant}`. */
export type PlaybackResource = OpenSessionInput['resource'];

import type { BookingPayloadSchema, BookingStoreRequestSchema, Order, PublicTicketedEventSchema, Ticket as ContractTicket } from '@svc/contract';

/** A published ticketed event, as the public pages read it (ticket types with prices and availability). */
export type PublicEvent = (typeof PublicTicketedEventSchema)['_output'];
/** What `book()` needs for a ticket type and quantity, and whether it can be booked now. */
export type BookingPayload = (typeof BookingPayloadSchema)['_output'];
/** The body of `book()`: the ticket type, the quantity, the buyer and one attendee per seat. */
export type BookingRequest = (typeof BookingStoreRequestSchema)['_input'];
/** The order (`booking`) and where to pay it: the checkout URL, or `[]` when nothing is due now. */
export type BookingResult = { booking: Order; payment: string | [] };
/** One of the signed-in person's tickets, with its secret (the code shown at the door). */
export type Ticket = ContractTicket;
