/**
 * The linters' warnings that remain on the OpenAPI documents, each with the reason it stays. The lint test fails on
 * any error, on a warning not listed here, and on an entry here that no longer matches a warning.
 */
export interface AcceptedWarning {
  linter: 'redocly' | 'spectral';
  rule: string;
  /** Matches the warning's message or its location (a JSON pointer or dotted path). */
  where: RegExp;
  reason: string;
}

export const ACCEPTED_WARNINGS: readonly AcceptedWarning[] = [
  {
    linter: 'redocly',
    rule: 'no-ambiguous-paths',
    where: /\/external\/\{external_id\}/,
    reason:
      'Every resource that has an external id is also read by its own id: `/x/external/{external_id}` beside `/x/{id}/verb`. They cannot be confused: ' +
      'an id always starts with its type\'s prefix (`ord_`, `ls_`, `key_`…), never with the word `external`, and the server answers an id without its prefix with 404.',
  },
  {
    linter: 'redocly',
    rule: 'operation-2xx-response',
    where: /~1auth~1v1~1authorize\/get/,
    reason: '`GET /auth/v1/authorize` is a browser navigation that always redirects (302) to the identity provider; it has no 2xx answer.',
  },
];
