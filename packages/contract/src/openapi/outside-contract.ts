import type { Tag } from './tags';

/**
 * Routes the server serves outside the ts-rest contract: inbound provider callbacks read their raw bytes (the
 * signature covers them), uploads take a file, and the documentation and checkout pages are HTML. They are
 * written here as OpenAPI, so the document lists every route; the server's tests check the two lists agree.
 */
const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const text = (type: string, description: string) => ({ description, content: { [type]: { schema: { type: 'string' } } } });
const pathParam = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string', maxLength: 255 } });
const queryParam = (name: string, description: string, required = false) => ({ name, in: 'query', required, description, schema: { type: 'string' } });
const rawBody = (description: string) => ({
  required: true,
  description,
  content: { 'application/json': { schema: { type: 'object', additionalProperties: true } }, 'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: true } } },
});
const received = (extra: string, description: string) => ({
  description,
  content: {
    'application/json': {
      schema: { type: 'object', required: ['received', extra], properties: { received: { const: true }, [extra]: {} } },
    },
  },
});
const callbackErrors = {
  '400': error('The body is not what the provider sends (`invalid_request`).'),
  '401': error('The signature or shared secret is missing or wrong, or the delivery is over five minutes old; nothing is recorded.'),
  '404': error('No such provider configuration.'),
  '413': error('The body is over 256 kB (`body_too_large`).'),
  '429': error('Too many requests from this address (`rate_limited`).'),
};

interface Operation {
  tags: [Tag];
  summary: string;
  description: string;
  operationId: string;
  security: [];
  [key: string]: unknown;
}

export const OUTSIDE_CONTRACT: Record<string, Partial<Record<'get' | 'put' | 'post' | 'options', Operation>>> = {
  '/api/v1/providers/{provider}/webhooks/{mpc_id}': {
    post: {
      tags: ['Provider callbacks'],
      operationId: 'providerCallbacks.videoProviderWebhook',
      summary: 'Receive a video provider\'s webhook',
      description:
        'Where a tenant\'s video account (its provider configuration `mpc_…`) sends webhooks and live-input notifications. The raw body is read as sent, because the ' +
        'provider\'s signature (its own header and scheme) covers its bytes; a delivery older than five minutes is refused. Set this URL in the provider\'s dashboard.',
      security: [],
      parameters: [pathParam('provider', 'The provider the configuration is for.'), pathParam('mpc_id', 'The provider configuration\'s id (`mpc_…`).')],
      requestBody: rawBody('The provider\'s delivery, exactly as it sends it.'),
      responses: { '200': received('outcome', 'Taken; `outcome` says what it changed.'), ...callbackErrors },
    },
  },
  '/api/v1/messaging/{provider}/callbacks/{config}': {
    post: {
      tags: ['Provider callbacks'],
      operationId: 'providerCallbacks.messagingReceipts',
      summary: 'Receive message delivery receipts',
      description:
        'Delivery receipts from a messaging provider: Africa\'s Talking (form body, the shared secret in `?secret=`) or WhatsApp (JSON signed in `X-Hub-Signature-256` ' +
        'over the raw body). A receipt for an unknown message is taken, so the provider does not retry it forever.',
      security: [],
      parameters: [
        pathParam('provider', '`africastalking` or `whatsapp`.'),
        pathParam('config', 'The channel configuration: `default`, the environment\'s.'),
        queryParam('secret', 'Africa\'s Talking\'s shared secret.'),
      ],
      requestBody: rawBody('The provider\'s receipts, exactly as it sends them.'),
      responses: { '200': received('outcomes', 'Taken; `outcomes` has one entry per receipt.'), ...callbackErrors },
    },
    get: {
      tags: ['Provider callbacks'],
      operationId: 'providerCallbacks.messagingSubscriptionCheck',
      summary: 'Answer WhatsApp\'s subscription check',
      description: 'Echoes `hub.challenge` when `hub.mode` is `subscribe` and `hub.verify_token` matches the configured token.',
      security: [],
      parameters: [
        pathParam('provider', '`whatsapp`.'),
        pathParam('config', '`default`.'),
        queryParam('hub.mode', '`subscribe`.'),
        queryParam('hub.verify_token', 'The configured verify token.'),
        queryParam('hub.challenge', 'Echoed back.'),
      ],
      responses: { '200': text('text/plain', 'The challenge.'), ...callbackErrors },
    },
  },
  '/api/v1/payments/{provider}/webhooks/{ppc_id}': {
    post: {
      tags: ['Provider callbacks'],
      operationId: 'providerCallbacks.paymentWebhook',
      summary: 'Receive a Paystack or Stripe webhook',
      description:
        'Where a tenant\'s Paystack or Stripe account (its payment provider configuration `ppc_…`, whose `webhook_url` this is) sends its events. The raw body is read ' +
        'as sent: Paystack signs it in `x-paystack-signature` (HMAC-SHA512 with the secret key), Stripe in `Stripe-Signature` (HMAC-SHA256 with the webhook secret, ' +
        'five minutes\' tolerance). A genuine event is recorded once per event id and answered at once; the service then asks the provider before it settles anything.',
      security: [],
      parameters: [pathParam('provider', '`paystack` or `stripe`.'), pathParam('ppc_id', 'The payment provider configuration\'s id (`ppc_…`).')],
      requestBody: rawBody('The provider\'s event, exactly as it sends it.'),
      responses: {
        '200': { description: 'Recorded (or already recorded).', content: { 'application/json': { schema: { type: 'object', required: ['received'], properties: { received: { const: true } } } } } },
        ...callbackErrors,
        '401': error('The signature is missing or wrong, or the event is over five minutes old (`provider_webhook_refused`); nothing is recorded.'),
        '404': error('No such payment provider configuration of this type; nothing is recorded.'),
      },
    },
  },
  '/api/v1/payments/mpesa/webhooks/{ppc_id}/{token}': {
    post: {
      tags: ['Provider callbacks'],
      operationId: 'providerCallbacks.mpesaCallback',
      summary: 'Receive an M-Pesa (Daraja) callback or result',
      description:
        'The address the service gives Daraja for one operation: an STK push\'s `CallBackURL`, or a reversal\'s `ResultURL` and `QueueTimeOutURL`. Daraja signs ' +
        'nothing, so the address carries a random token made for that operation alone, kept hashed. A genuine callback is recorded once per `CheckoutRequestID` and ' +
        'result and answered at once; the service then asks Daraja (STK Query) before it settles anything.',
      security: [],
      parameters: [pathParam('ppc_id', 'The M-Pesa configuration\'s id (`ppc_…`).'), pathParam('token', 'The operation\'s token.')],
      requestBody: rawBody('Daraja\'s callback, exactly as it sends it.'),
      responses: {
        '200': {
          description: 'Accepted, as Daraja expects.',
          content: { 'application/json': { schema: { type: 'object', required: ['ResultCode', 'ResultDesc'], properties: { ResultCode: { const: 0 }, ResultDesc: { const: 'Accepted' } } } } },
        },
        '400': error('The body is neither an STK callback nor a Daraja result (`invalid_request`).'),
        '404': error('No such configuration, or no operation has this token; nothing is recorded.'),
        '413': callbackErrors['413'],
        '429': callbackErrors['429'],
      },
    },
  },
  '/v1/streams/uploads/{id}/file': {
    put: {
      tags: ['Streams'],
      operationId: 'streams.uploads.sendFile',
      summary: 'Send the file of a direct upload (simulated network)',
      description:
        'The one-time `url` of a test-mode direct upload: `PUT` the file as the body. The `token` in the URL is the credential; a browser may send it only from the upload\'s `cors_origin`.',
      security: [],
      parameters: [pathParam('id', 'The upload\'s id.'), queryParam('token', 'The upload URL\'s secret.', true)],
      requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
      responses: {
        '200': { description: 'Received.', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } },
        '400': error('No file was sent.'),
        '401': error('The token is wrong.'),
        '403': error('The origin may not send this upload.'),
        '404': error('No such upload.'),
        '409': error('The upload URL was used already.'),
        '413': error('The file is larger than the upload takes.'),
        '429': error('Too many requests.'),
      },
    },
    options: {
      tags: ['Streams'],
      operationId: 'streams.uploads.sendFilePreflight',
      summary: 'CORS preflight of a direct upload',
      description: 'Answers a browser\'s preflight for the upload\'s `cors_origin` only.',
      security: [],
      parameters: [pathParam('id', 'The upload\'s id.'), queryParam('token', 'The upload URL\'s secret.', true)],
      responses: { '204': { description: 'The upload may be sent from this origin.' }, '403': error('The origin may not send this upload.'), '404': error('No such upload.') },
    },
  },
  '/internal/media/on_publish': {
    post: {
      tags: ['Internal'],
      operationId: 'internal.mediaOnPublish',
      summary: 'An encoder starts publishing',
      description: 'nginx-rtmp\'s `on_publish`: a 2xx lets the encoder in, a `302` to an `rtmp://` address relays it, anything else refuses it.',
      security: [],
      parameters: [queryParam('secret', 'The media network\'s hook secret.', true)],
      requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: { type: 'string' } } } } },
      responses: { '200': { description: 'Let in.' }, '302': { description: 'Relayed under its live input.' }, '403': { description: 'Refused.' }, '404': { description: 'Not this server\'s media network.' } },
    },
  },
  '/internal/media/on_publish_done': {
    post: {
      tags: ['Internal'],
      operationId: 'internal.mediaOnPublishDone',
      summary: 'An encoder stops publishing',
      description: 'nginx-rtmp\'s `on_publish_done`.',
      security: [],
      parameters: [queryParam('secret', 'The media network\'s hook secret.', true)],
      requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: { type: 'string' } } } } },
      responses: { '200': { description: 'Noted.' }, '404': { description: 'Not this server\'s media network.' } },
    },
  },
  '/openapi.json': { get: page('Documentation', 'docs.openApi', 'This document (OpenAPI 3.1.0)', 'application/json') },
  '/openapi.3.0.json': { get: page('Documentation', 'docs.openApi30', 'This document as OpenAPI 3.0.3, for older tools', 'application/json') },
  '/docs': { get: page('Documentation', 'docs.reference', 'The API reference page', 'text/html') },
  '/docs/init.js': { get: page('Documentation', 'docs.referenceScript', 'The reference page\'s script', 'application/javascript') },
  '/docs/errors': { get: page('Documentation', 'docs.errors', 'The error codes page, which `doc_url` links to', 'text/html') },
  '/docs/assets/{file}': {
    get: { ...page('Documentation', 'docs.assets', 'The reference page\'s static files (Swagger UI)', 'application/octet-stream'), parameters: [pathParam('file', 'The file\'s name.')] },
  },
  '/checkout/{id}': {
    get: {
      ...page('Payments', 'checkout.page', 'The hosted checkout page of a checkout session', 'text/html'),
      parameters: [pathParam('id', 'The checkout session\'s id.')],
    },
  },
  '/checkout/{id}/return': {
    get: {
      ...page('Payments', 'checkout.return', 'The checkout page a buyer returns to from a provider\'s hosted page', 'text/html'),
      description:
        "Paystack's `callback_url` and Stripe's `success_url`/`cancel_url`: asks the provider about the session's newest attempt, shows the outcome once settled " +
        'and forwards to `redirect_to`. The page itself never grants anything.',
      parameters: [pathParam('id', 'The checkout session\'s id.')],
    },
  },
  '/checkout/assets/checkout.js': { get: page('Payments', 'checkout.script', 'The checkout page\'s script', 'application/javascript') },
  '/checkout/assets/checkout.css': { get: page('Payments', 'checkout.styles', 'The checkout page\'s styles', 'text/css') },
  '/console': { get: page('Documentation', 'console.app', 'The console: the web dashboard of tenant staff', 'text/html') },
  '/console/{path}': {
    get: {
      ...page('Documentation', 'console.screens', 'A screen or static file of the console (each screen is a page of the one app)', 'text/html'),
      parameters: [pathParam('path', 'The screen\'s path within the console, or a static file under `assets/`.')],
    },
  },
  '/capsules/{handle}': {
    get: {
      ...page('Creators', 'capsules.page', 'The public page of a creator\'s capsule, in the brand of its organization or tenant', 'text/html'),
      description:
        'A page the service renders from the public capsule. On a custom domain it serves that domain\'s tenant; on the service\'s own host, `?tenant=` names the tenant (live mode), as the tenant header does.',
      parameters: [pathParam('handle', 'The capsule\'s handle.'), queryParam('tenant', 'The tenant\'s code, on the service\'s own host.')],
    },
  },
  '/.well-known/svc-domain-check': {
    get: {
      ...page('Whitelabel', 'domains.checkToken', 'The check token of the custom domain the request came on', 'text/plain'),
      description: 'Answered on a verified or active custom domain\'s host only: the domain check fetches it to prove that the host reaches this deployment.',
    },
  },
  '/internal/domains/allow': {
    get: {
      ...page('Whitelabel', 'domains.allowCertificate', 'Whether a TLS proxy may ask for a certificate for a hostname', 'text/plain'),
      description:
        'A reverse proxy\'s question before it asks for a certificate on demand (Caddy\'s `ask`): `200` for verified and active custom domains, `404` for any other. ' +
        'Answered to loopback callers, or to the operator token.',
      parameters: [queryParam('domain', 'The hostname the proxy was asked for.', true)],
      responses: { '200': text('text/plain', 'A certificate may be issued.'), '403': text('text/plain', 'Not a loopback caller or the operator.'), '404': text('text/plain', 'Not an active custom domain.') },
    },
  },
};

function page(tag: Tag, operationId: string, summary: string, type: string): Operation {
  return {
    tags: [tag],
    operationId,
    summary,
    description: `${summary}.`,
    security: [],
    responses: { '200': text(type, summary), '404': error('No such page.'), '429': error('Too many requests from this address.') },
  };
}
