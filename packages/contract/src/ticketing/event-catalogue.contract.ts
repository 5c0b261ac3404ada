import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import {
  CouponSchema,
  CreateCouponSchema,
  CreateEventSlotSchema,
  CreateTicketTypeSchema,
  EventSlotSchema,
  TicketTypeSchema,
  UpdateCouponSchema,
  UpdateTicketTypeSchema,
} from './catalogue.schemas';
import { EventParams, organizerErrors, organizerRoute } from './organizer-events.contract';

const c = initContract();
const ItemParams = EventParams.extend({ id: z.string().max(255) });

export const ticketTypesContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/organizer/events/:event/ticket_types',
      summary: 'Create a ticket type',
      description:
        '`fixed` needs `price`; `name_your_price` needs `flexipay_min_price` ≤ `flexipay_max_price`. `quantity` is per slot when the event has slots.',
      pathParams: EventParams,
      body: CreateTicketTypeSchema,
      responses: { 201: dataOf(TicketTypeSchema), ...organizerErrors, ...errorResponses(404, 422) },
      metadata: organizerRoute('write'),
    },
    list: {
      method: 'GET',
      path: '/v1/organizer/events/:event/ticket_types',
      summary: 'List ticket types',
      description: 'Newest first.',
      pathParams: EventParams,
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(TicketTypeSchema), ...organizerErrors, ...errorResponses(404, 422) },
      metadata: organizerRoute('read'),
    },
    update: {
      method: 'PATCH',
      path: '/v1/organizer/events/:event/ticket_types/:id',
      summary: 'Update a ticket type',
      description: 'Changes the fields given. A `quantity` below the tickets already held and sold is refused (`422`, `param: quantity`).',
      pathParams: ItemParams,
      body: UpdateTicketTypeSchema,
      responses: { 200: dataOf(TicketTypeSchema), ...organizerErrors, ...errorResponses(404, 422) },
      metadata: organizerRoute('write'),
    },
  },
  { strictStatusCodes: true },
);

export const eventSlotsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/organizer/events/:event/slots',
      summary: 'Create a slot',
      description: 'A time slot of the event; once an event has slots, a booking names one.',
      pathParams: EventParams,
      body: CreateEventSlotSchema,
      responses: { 201: dataOf(EventSlotSchema), ...organizerErrors, ...errorResponses(404, 422) },
      metadata: organizerRoute('write'),
    },
    list: {
      method: 'GET',
      path: '/v1/organizer/events/:event/slots',
      summary: 'List slots',
      description: 'Newest first.',
      pathParams: EventParams,
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(EventSlotSchema), ...organizerErrors, ...errorResponses(404, 422) },
      metadata: organizerRoute('read'),
    },
  },
  { strictStatusCodes: true },
);

export const couponsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/organizer/events/:event/coupons',
      summary: 'Create a coupon',
      description: '`code` is unique per event, compared without case (`409 coupon_code_taken`). `percent` values are 1 to 100.',
      pathParams: EventParams,
      body: CreateCouponSchema,
      responses: { 201: dataOf(CouponSchema), ...organizerErrors, ...errorResponses(404, 409, 422) },
      metadata: organizerRoute('write'),
    },
    list: {
      method: 'GET',
      path: '/v1/organizer/events/:event/coupons',
      summary: 'List coupons',
      description: 'Newest first.',
      pathParams: EventParams,
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(CouponSchema), ...organizerErrors, ...errorResponses(404, 422) },
      metadata: organizerRoute('read'),
    },
    update: {
      method: 'PATCH',
      path: '/v1/organizer/events/:event/coupons/:id',
      summary: 'Update a coupon',
      description: 'Changes the fields given; `active: false` stops new uses. `max_uses` below the uses held and redeemed is refused (`422`).',
      pathParams: ItemParams,
      body: UpdateCouponSchema,
      responses: { 200: dataOf(CouponSchema), ...organizerErrors, ...errorResponses(404, 422) },
      metadata: organizerRoute('write'),
    },
  },
  { strictStatusCodes: true },
);
