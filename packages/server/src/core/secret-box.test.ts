import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseEncryptionKey, SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.encrypt('live_stream_key_123', 'ls_1');
    expect(sealed).not.toContain('live_stream_key_123');
    expect(box.decrypt(sealed, 'ls_1')).toBe('live_stream_key_123');
  });

  it('uses a fresh IV each time', () => {
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('refuses another context, another key and a tampered ciphertext', () => {
    const sealed = box.encrypt('secret', 'ls_1');
    expect(() => box.decrypt(sealed, 'ls_2')).toThrow();
    expect(() => new SecretBox(randomBytes(32)).decrypt(sealed, 'ls_1')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.decrypt(parts.join('.'), 'ls_1')).toThrow();
  });

  it('parses base64 and hex keys of 32 bytes only', () => {
    const key = randomBytes(32);
    expect(parseEncryptionKey(key.toString('base64')).equals(key)).toBe(true);
    expect(parseEncryptionKey(key.toString('hex')).equals(key)).toBe(true);
    expect(() => parseEncryptionKey(randomBytes(16).toString('base64'))).toThrow();
  });
});

describe('SecretBox, opening the same sealed value again', () => {
  it('answers from memory only for the same ciphertext under the same context', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.encrypt('stream-key', 'ls_1:stream_key');
    expect(box.decrypt(sealed, 'ls_1:stream_key')).toBe('stream-key');
    expect(box.decrypt(sealed, 'ls_1:stream_key')).toBe('stream-key');
    // A value opened before is still refused under another context, or with its tag changed.
    expect(() => box.decrypt(sealed, 'ls_2:stream_key')).toThrow();
    const parts = sealed.split('.');
    parts[2] = Buffer.alloc(16).toString('base64url');
    expect(() => box.decrypt(parts.join('.'), 'ls_1:stream_key')).toThrow();
  });

  it('keeps answering under the right context after a refusal under another', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.encrypt('stream-key', 'ls_1:stream_key');
    expect(() => box.decrypt(sealed, 'ls_2:stream_key')).toThrow();
    expect(box.decrypt(sealed, 'ls_1:stream_key')).toBe('stream-key');
    expect(() => box.decrypt(sealed, 'ls_2:stream_key')).toThrow();
    expect(box.decrypt(sealed, 'ls_1:stream_key')).toBe('stream-key');
  });

  it('keeps large sealed values (stored answers) out of memory and still opens them', () => {
    const box = new SecretBox(randomBytes(32));
    const big = 'x'.repeat(2_000);
    const sealed = box.encrypt(big, 'answer');
    expect(box.decrypt(sealed, 'answer')).toBe(big);
    expect((box as unknown as { opened: Map<string, string> }).opened.size).toBe(0);
  });
});
