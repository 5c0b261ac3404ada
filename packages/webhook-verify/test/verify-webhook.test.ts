import { describe, expect, it } from 'vitest';
import vectors from '../test-vectors.json';
import { signWebhook, verifyWebhook, WebhookVerificationError } from '../src/index';

async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'valid';
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.reason;
    throw err;
  }
}

describe('test vectors', () => {
  it.each(vectors.vectors.map((v) => [v.name, v] as const))('%s', async (_name, v) => {
    expect(await outcome(verifyWebhook(v.body, v.header, v.secrets, { now: v.now, toleranceSeconds: vectors.tolerance_seconds }))).toBe(v.expect);
  });

  it('verifies bytes and ArrayBuffers as well as strings', async () => {
    const v = vectors.vectors[1]!;
    const bytes = new TextEncoder().encode(v.body);
    expect(await outcome(verifyWebhook(bytes, v.header, v.secrets, { now: v.now }))).toBe('valid');
    expect(await outcome(verifyWebhook(bytes.buffer as ArrayBuffer, v.header, v.secrets, { now: v.now }))).toBe('valid');
    expect(await outcome(verifyWebhook(Buffer.from(v.body), v.header, v.secrets, { now: v.now }))).toBe('valid');
  });
});

describe('verifyWebhook', () => {
  const secret = 'whsec_test_secret';

  it('returns the parsed event', async () => {
    const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'streams.asset.ready' });
    const header = await signWebhook(body, secret);
    await expect(verifyWebhook(body, header, secret)).resolves.toMatchObject({ id: 'evt_1', type: 'streams.asset.ready' });
  });

  it('refuses an already-parsed body and says to pass the raw one', async () => {
    const body = { id: 'evt_1' };
    const header = await signWebhook(JSON.stringify(body), secret);
    const err = await verifyWebhook(body as never, header, secret).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookVerificationError);
    expect((err as WebhookVerificationError).reason).toBe('raw_body_required');
    expect((err as Error).message).toMatch(/raw request body/);
  });

  it('reports a missing header before anything else', async () => {
    expect(await outcome(verifyWebhook('{}', undefined, secret))).toBe('missing_header');
    expect(await outcome(verifyWebhook('{}', null, secret))).toBe('missing_header');
  });

  it('uses the given clock and tolerance', async () => {
    const header = await signWebhook('{}', secret, { timestamp: 1000 });
    expect(await outcome(verifyWebhook('{}', header, secret, { now: 1000 + 3600, toleranceSeconds: 3600 }))).toBe('valid');
    expect(await outcome(verifyWebhook('{}', header, secret, { now: new Date((1000 + 3601) * 1000), toleranceSeconds: 3600 }))).toBe(
      'timestamp_outside_tolerance',
    );
  });

  it('signWebhook with several secrets writes one v1 per secret, in order', async () => {
    const header = await signWebhook('{}', ['whsec_a', 'whsec_b'], { timestamp: 42 });
    expect(header).toMatch(/^t=42,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(await outcome(verifyWebhook('{}', header, 'whsec_b', { now: 42 }))).toBe('valid');
  });
});
