import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { OrderSchema, TicketSchema } from './orders.schemas';

const c = initContract();

/** A signed-in person (identity access token). */
const signedIn = access({ auth: 'tenant', credentials: ['user'], scope: 'events:read', product: 'events' });

export const ticketsContract = c.router(
  {
    attendeeTickets: {
      method: 'GET',
      path: '/v1/attendee/tickets',
      summary: 'List my tickets',
      description: 'The signed-in customer\'s tickets (as attendee or as buyer), newest first, with their secrets.',
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(TicketSchema), ...errorResponses(...COMMON_ERROR_STATUSES) },
      metadata: signedIn,
    },
    creatorBooking: {
      method: 'GET',
      path: '/v1/creator/bookings/:code',
      summary: 'Retrieve a booking by code',
      description: 'The booking, for its signed-in buyer or a member of the event\'s organization; `401` without a token.',
      pathParams: z.object({ code: z.string().max(32) }),
      responses: { 200: dataOf(OrderSchema), ...errorResponses(...COMMON_ERROR_STATUSES), ...errorResponses(404) },
      metadata: signedIn,
    },
  },
  { strictStatusCodes: true },
);
