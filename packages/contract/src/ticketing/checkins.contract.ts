import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { access, frequent } from '../common/access';
import { COMMON_ERROR_STATUSES, errorResponses } from '../common/errors';
import { CursorPageQuerySchema, cursorListOf, dataOf } from '../common/pagination';
import { CheckinSchema, ScanResultSchema, ScanSchema } from './attendees.schemas';

const c = initContract();

/** Door staff: the `checkin` organization role and above, or keys with `events:write`. */
const door = access({ auth: 'tenant', credentials: ['secret', 'restricted', 'user'], scope: 'events:write', permission: 'events:checkin', product: 'events' });
const errors = errorResponses(...COMMON_ERROR_STATUSES);
const EventParams = z.object({ event: z.string().max(255) });

export const checkinsContract = c.router(
  {
    scan: {
      method: 'POST',
      path: '/v1/organizer/events/:event/checkins',
      summary: 'Scan a ticket',
      description: 'Answers `200` with `status: ok` or `error` and a `reason`; every scan is stored. A repeated `nonce` answers the stored result.',
      pathParams: EventParams,
      body: ScanSchema,
      responses: { 200: dataOf(ScanResultSchema), ...errors, ...errorResponses(404, 422) },
      // Thousands a minute at the doors, each stored as a check-in: its log lines are counted into the periodic summary.
      metadata: { ...door, ...frequent },
    },
    sync: {
      method: 'POST',
      path: '/v1/organizer/events/:event/checkins/sync',
      summary: 'Upload offline scans',
      description: 'Up to 100 scans, each handled as `POST …/checkins`; one result per scan, in order.',
      pathParams: EventParams,
      body: z.object({ scans: z.array(ScanSchema).min(1).max(100) }),
      responses: { 200: z.object({ data: z.array(ScanResultSchema) }), ...errors, ...errorResponses(404, 422) },
      metadata: door,
    },
    list: {
      method: 'GET',
      path: '/v1/organizer/events/:event/checkins',
      summary: 'List scans',
      description: 'Newest first, refused scans included.',
      pathParams: EventParams,
      query: CursorPageQuerySchema,
      responses: { 200: cursorListOf(CheckinSchema), ...errors, ...errorResponses(404) },
      metadata: door,
    },
  },
  { strictStatusCodes: true },
);
