import { initServer } from '@ts-rest/express';
import { contract } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { actorOf } from '../../../core/principal';
import { addAttendee } from './add-attendee.service';
import { exportAttendees } from './attendees-export';
import { getAttendee, listAttendees } from './attendees.service';
import { resendTicket } from './resend.service';
import { approveAttendee, rejectAttendee } from './review.service';

const s = initServer();

export const attendeesRouter = (ctx: AppContext) =>
  s.router(contract.attendees, {
    list: async ({ params, query, req }) => ({ status: 200, body: await listAttendees(ctx, actorOf(req), params.event, query) }),
    create: async ({ params, body, req }) => ({ status: 201, body: { data: await addAttendee(ctx, actorOf(req), params.event, body) } }),
    export: async ({ params, query, req, res }) => {
      const { stream, filename } = await exportAttendees(ctx, actorOf(req), params.event, query.format);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
      // Headers are gone by the time a read fails mid-way: the connection is cut so the client sees a broken file.
      stream.on('error', () => res.destroy());
      res.on('close', () => stream.destroy());
      return { status: 200, body: stream as unknown as string };
    },
    retrieve: async ({ params, req }) => ({ status: 200, body: { data: await getAttendee(ctx, actorOf(req), params.event, params.attendee) } }),
    approve: async ({ params, req }) => ({ status: 200, body: { data: await approveAttendee(ctx, actorOf(req), params.event, params.attendee) } }),
    reject: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await rejectAttendee(ctx, actorOf(req), params.event, params.attendee, body?.reason ?? null) },
    }),
    resend: async ({ params, req }) => ({ status: 200, body: await resendTicket(ctx, actorOf(req), params.event, params.attendee) }),
  });
