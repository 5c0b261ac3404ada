import { newId } from '../../src/core/ids';

/* The bad values the bad-input sweep (bad-input-requests.ts) puts in paths, tokens, queries and bodies. */

/** Path parameter values: another prefix's well-formed id, blank, long, unicode, NUL, traversal, broken escapes. */
export const PATH_VALUES = [
  newId('ticket'),
  '%20',
  '%09',
  'x'.repeat(300),
  encodeURIComponent('日本語🎥'),
  '%00',
  'ls_%00',
  '..',
  '..%2F..%2Fetc%2Fpasswd',
  '%E0%A4%A',
  '%',
  '%FF%FE',
  '__proto__',
  'constructor',
];

/** A JWT-shaped token with any header, unsigned. */
const jwtWith = (header: object, claims: object = { sub: 'x' }) =>
  `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.AAAA`;
export const ODD_TOKENS = [
  'garbage',
  'a.b.c',
  jwtWith({ alg: 'none' }).slice(0, -4),
  jwtWith({ alg: 'HS256', kid: 'k'.repeat(5000) }),
  jwtWith({ alg: 'HS256', kid: { a: 1 } }),
  jwtWith({ alg: 'HS256', kid: 'ctk_\u0000' }),
  jwtWith({ alg: 'HS256', kid: newId('customer_token_key') }, { sub: 'a\u0000', iat: 1, exp: 2 }),
  jwtWith({ alg: 'RS256', kid: 'psk_\u0000' }),
  jwtWith({ alg: 'RS256', kid: newId('signing_key') }),
  `${Buffer.from('[]').toString('base64url')}.${Buffer.from('null').toString('base64url')}.AAAA`,
];

/** Query strings any route may get: repeated, bracketed into objects or arrays, huge, negative, NUL. */
export const COMMON_QUERIES = [
  'limit[a]=1',
  'expand[0][x]=1',
  'metadata=str',
  'metadata[a][b][c]=1',
  'metadata[__proto__]=x',
  'metadata[k]=%00',
  'limit=1&limit=2',
  'limit=1e400',
  'limit=-5',
  'limit=99999999999999999999',
  'page=99999999999999999999&per_page=1',
  'page[]=1',
  'cursor[a]=b',
  'cursor=%00',
  'cursor=AAAA',
  'cursor=' + 'x'.repeat(400),
  ...[['n', '\u0000'], ['n', { a: 1 }], ['p', 'x'.repeat(10_000)], ['x', 'ls_1'], null].map(
    (c) => `cursor=${Buffer.from(JSON.stringify(c)).toString('base64url')}`,
  ),
  'starting_after[]=x',
  'starting_after=%00',
  'ending_before=' + encodeURIComponent('日本語🎥'),
  'expand[]=__proto__',
  'expand[]=constructor.prototype',
  'expand=' + 'a.'.repeat(50),
  'external_id=%00',
  'external_id[a]=1',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  'token[a]=1',
  'token=1&token=2',
  'token=%00',
  ...ODD_TOKENS.map((token) => `token=${encodeURIComponent(token)}`),
  'created[gte]=not-a-date',
  'status=zzz',
  'type=zzz',
  '%E0%A4%A=1',
  'a=%E0%A4%A',
];

/** Per query field of the route's schema: the field as an object, repeated, unknown, huge, negative, NUL. */

/** Bodies that are not the object the route wants at all. Raw text, so malformed JSON stays malformed. */
const DEPTH = 20_000;
export const RAW_BODIES = [
  '{"name": "unterminated',
  '{,}',
  '[]',
  '[1,2,3]',
  '"a string"',
  '123',
  '-1',
  '1e999',
  'null',
  'true',
  '',
  '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
  '{"a": 1, "a": 2}',
  '{"x": "\\u0000"}',
  '{"x": "\\ud800"}',
  '[' .repeat(DEPTH) + ']'.repeat(DEPTH),
  '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH),
];

/** Wrong values for one field, as raw JSON so `1e999` and 30-digit integers reach the parser as sent. */
export const WRONG_VALUES = [
  'null',
  'true',
  '-1',
  '0',
  '1.5',
  '1e308',
  '1e999',
  '2147483648',
  '9223372036854775808',
  '123456789012345678901234567890',
  '""',
  '"zzz_unknown"',
  '"2026-13-45T25:61:00Z"',
  '"+275760-09-13T00:00:00.001Z"',
  '"-000001-01-01T00:00:00Z"',
  JSON.stringify('x'.repeat(5000)),
  '"nul\\u0000byte"',
  '"lone\\ud800surrogate"',
  '{"k": "\\udfff", "\\ud800": "v"}',
  '{"prototype": "v", "constructor": "v"}',
  JSON.stringify('日本語🎥'),
  '"../../etc/passwd"',
  '[]',
  '[1, "a", null, {}]',
  '{}',
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"a":'.repeat(200) + '1' + '}'.repeat(200),
];

