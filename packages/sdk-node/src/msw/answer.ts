import type { z } from 'zod';
import type { ContractRoute } from '../core/types';
import { fakeFromSchema, mockId, responseShape } from './fake';
import { issueSecret } from './secrets';
import type { MockObject, MockStore } from './store';

export interface RouteCall {
  route: ContractRoute;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

export type Answer = { status: number; body: unknown } | { status: number; text: string; contentType: string } | { notFound: string };

export const successStatus = (route: ContractRoute) => Number(Object.keys(route.responses).find((s) => Number(s) < 300) ?? 200);
export const successSchema = (route: ContractRoute) => route.responses[successStatus(route)] as z.ZodType;

const PAGING = ['limit', 'cursor', 'starting_after', 'ending_before', 'page', 'per_page', 'expand', 'metadata'];

/** A new object of the answer's type: the schema's smallest value, the request's fields it knows, a fresh id. */
export function makeObject(item: z.ZodType, fields: Record<string, unknown>): MockObject {
  const base = fakeFromSchema(item) as Record<string, unknown>;
  const shape = (item as z.ZodObject).shape ?? {};
  // Only request fields the answer's schema takes as they are (a request's `resource: 'ls_…'` is an object in the answer).
  const known = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => k in shape && k !== 'id' && v !== undefined && (shape[k] as z.ZodType).safeParse(v).success),
  );
  const now = new Date().toISOString();
  // Ids the schema takes as uuids (the catalogue's, attendees') stay the fake's uuid.
  const id = (shape.id as z.ZodType | undefined)?.safeParse('x_mock').success === false && typeof base.id === 'string' ? base.id : mockId(base.object as string | undefined);
  const object = { ...base, ...known, id } as MockObject;
  for (const field of ['created_at', 'updated_at']) if (field in shape) object[field] = now;
  return object;
}

/** The state an action verb leaves (`disable` → `disabled`), if the object's status enum has it. */
function stateAfter(item: z.ZodType, verb: string): [string, string] | undefined {
  const shape = (item as z.ZodObject).shape ?? {};
  const field = ['status', 'state'].find((f) => f in shape);
  const options = field ? ((shape[field] as z.ZodEnum).options as string[] | undefined) : undefined;
  if (!field || !options) return undefined;
  const candidates = verb === 'enable' || verb === 'resume' ? ['active', 'enabled', 'idle'] : verb === 'delete' ? ['revoked', 'deleted', 'ended', 'cancelled'] : [`${verb}d`, `${verb}ed`, `${verb}led`];
  const state = candidates.find((c) => options.includes(c));
  return state ? [field, state] : undefined;
}

/**
 * An object as a route whose schema differs from the one it was stored under shows it (a content item in the review
 * queue carries its assets inline): the schema's smallest value, with each stored field the schema takes as it is.
 */
export function conform(item: z.ZodType, object: MockObject): MockObject {
  const shape = (item as z.ZodObject).shape;
  if (!shape) return { ...object };
  const fitting = Object.entries(object).filter(([k, v]) => k in shape && (shape[k] as z.ZodType).safeParse(v).success);
  return { ...(fakeFromSchema(item) as Record<string, unknown>), ...Object.fromEntries(fitting) } as MockObject;
}

/** The older page-numbered list with `links` beside `meta` (the approvals queue), as the server builds it. */
function pageWithLinks(all: MockObject[], query: Record<string, unknown>, baseUrl: string) {
  const perPage = Number(query.per_page ?? 15);
  const current = Number(query.page ?? 1);
  const last = Math.max(1, Math.ceil(all.length / perPage));
  const data = all.slice((current - 1) * perPage, current * perPage);
  const url = (n: number) => `${baseUrl}?page=${n}`;
  const prev = current > 1 ? url(current - 1) : null;
  const next = current < last ? url(current + 1) : null;
  const from = data.length ? (current - 1) * perPage + 1 : null;
  const numbers = Array.from({ length: last }, (_, i) => ({ url: url(i + 1), label: String(i + 1), active: i + 1 === current }));
  return {
    data,
    links: { first: url(1), last: url(last), prev, next },
    meta: {
      current_page: current,
      from,
      last_page: last,
      links: [{ url: prev, label: '&laquo; Previous', active: false }, ...numbers, { url: next, label: 'Next &raquo;', active: false }],
      path: baseUrl,
      per_page: perPage,
      to: from === null ? null : from + data.length - 1,
      total: all.length,
    },
  };
}

function page(objects: MockObject[], route: ContractRoute, query: Record<string, unknown>) {
  const item = responseShape(successSchema(route))!.item;
  const all = objects.slice().reverse().map((o) => conform(item, o));
  if ('links' in ((successSchema(route) as z.ZodObject).shape ?? {})) return pageWithLinks(all, query, `https://svc.mock${route.path}`);
  const meta = ((successSchema(route) as z.ZodObject).shape?.meta as z.ZodObject | undefined)?.shape?.pagination as z.ZodObject | undefined;
  if (meta && 'current_page' in meta.shape) {
    const perPage = Number(query.per_page ?? 20);
    const current = Number(query.page ?? 1);
    const pagination = { current_page: current, total_pages: Math.max(1, Math.ceil(all.length / perPage)), per_page: perPage, total: all.length };
    return { data: all.slice((current - 1) * perPage, current * perPage), meta: { pagination } };
  }
  const limit = Number(query.limit ?? 20);
  const cursor = typeof query.cursor === 'string' ? (JSON.parse(atob(query.cursor)) as [string, string]) : undefined;
  const after = cursor?.[0] === 'n' ? cursor[1] : (query.starting_after as string | undefined);
  const before = cursor?.[0] === 'p' ? cursor[1] : (query.ending_before as string | undefined);
  const start = after ? all.findIndex((o) => o.id === after) + 1 : 0;
  const end = before ? Math.max(0, all.findIndex((o) => o.id === before)) : all.length;
  const data = before && !after ? all.slice(Math.max(start, end - limit), end) : all.slice(start, start + limit);
  const first = data[0] ? all.indexOf(data[0]) : start;
  const last = data.length ? all.indexOf(data.at(-1)!) : start - 1;
  const older = last < all.length - 1;
  const newer = first > 0;
  const pagination = {
    limit,
    has_more: before && !after ? newer : older,
    next_cursor: older && data.length ? btoa(JSON.stringify(['n', data.at(-1)!.id])) : null,
    prev_cursor: newer && data.length ? btoa(JSON.stringify(['p', data[0]!.id])) : null,
  };
  return { data, meta: { pagination } };
}

/**
 * What the server would answer, from the store: lists page through the objects of the answer's type (under
 * a parent id where the path has one), creates store new objects, item routes find theirs by id (or
 * `external_id`), updates merge, deletes and action verbs move the object to the state they name, and an
 * action answering another type (a clip of an asset) makes an object of that type linked to its parent.
 */
export function answer(store: MockStore, call: RouteCall): Answer {
  // A route answering text (the attendee CSV) answers an empty document of its content type.
  const declared = call.route.responses[successStatus(call.route)] as { contentType?: string; body?: unknown };
  if (typeof declared?.contentType === 'string' && declared.contentType !== 'application/json') {
    return { status: successStatus(call.route), text: declared.contentType === 'text/csv' ? 'id\n' : '', contentType: declared.contentType };
  }
  const answered = storeAnswer(store, call);
  // Spec-shaped summaries (analytics, an attendee list with its `summary`, CSV) are no store's objects: an answer
  // the store cannot shape as the route declares is the schema's smallest value instead.
  if ('body' in answered && !successSchema(call.route).safeParse(answered.body).success) {
    return { status: answered.status, body: fakeFromSchema(successSchema(call.route)) };
  }
  return answered;
}

function storeAnswer(store: MockStore, call: RouteCall): Answer {
  const { route, params, query, body } = call;
  const status = successStatus(route);
  const shape = responseShape(successSchema(route));
  const ids = Object.values(params);
  if (!shape) return { status, body: fakeFromSchema(successSchema(route)) };
  // A record that is no stored object of its own (a profile, a readiness, a public page, a booking's
  // `{booking, payment}`) answers the schema's smallest value.
  if (!shape.object && !shape.list) return { status, body: { data: fakeFromSchema(shape.item) } };
  const type = shape.object ?? 'object';
  const itemShape = (shape.item as z.ZodObject).shape ?? {};
  const withSecret = (o: MockObject) => ('secret' in itemShape ? issueSecret(o, store.secrets) : o);

  if (shape.list) {
    const filters = Object.entries(query).filter(([k]) => !PAGING.includes(k));
    const metadata = (query.metadata ?? {}) as Record<string, string>;
    const objects = store
      .all(type)
      .filter((o) => ids.every((id) => Object.values(o).includes(id)))
      .filter((o) => filters.every(([k, v]) => !(k in o) || o[k] === v))
      .filter((o) => Object.entries(metadata).every(([k, v]) => (o.metadata as Record<string, string> | undefined)?.[k] === v));
    return { status, body: page(objects, route, query) };
  }
  if (ids.length === 0) {
    if (route.method !== 'POST') return { status, body: { data: fakeFromSchema(shape.item) } };
    return { status, body: { data: withSecret(store.insert(makeObject(shape.item, body))) } };
  }

  const parent = /\/external\/:/.test(route.path) ? store.find(type, 'external_id', ids[0]) : store.get(ids[0]!);
  if (!parent) return { notFound: ids[0]! };
  const verb = /\/([a-z_]+)$/.exec(route.path)?.[1];
  const onItem = /\/:[a-z_]+$/.test(route.path);

  if (parent.object !== type) {
    // An action answering another object: a clip of an asset, a test event of an endpoint.
    const links = Object.fromEntries(Object.keys(itemShape).filter((k) => k === parent.object || k === `${parent.object}_id`).map((k) => [k, parent.id]));
    const made = makeObject(shape.item, { ...body, ...links });
    if (type === 'event') Object.assign(made, { type: `platform.${parent.object}.tested`, subject: parent.id, data: { object: parent, previous_attributes: null } });
    return { status, body: { data: store.insert(made) } };
  }
  if (route.method === 'PATCH') Object.assign(parent, body);
  const deletesItem = route.method === 'DELETE' && onItem && ids.length === 1;
  if (deletesItem || (route.method === 'POST' && !onItem && verb)) {
    const next = stateAfter(shape.item, deletesItem ? 'delete' : verb!);
    if (next) parent[next[0]] = next[1];
    else if (deletesItem) store.remove(parent.id);
    // Deletes that forget the object answer the fields their schema names, with `deleted: true`.
    if (deletesItem && !next && 'deleted' in itemShape) {
      return { status, body: { data: Object.fromEntries(Object.keys(itemShape).map((k) => [k, k === 'deleted' ? true : parent[k]])) } };
    }
  }
  if (verb === 'reset_stream_key' && 'stream_key' in parent) parent.stream_key = mockId(undefined).replace('obj_', '');
  const rolled = verb === 'roll' || verb === 'roll_secret';
  return { status, body: { data: rolled ? withSecret(parent) : conform(shape.item, parent) } };
}
