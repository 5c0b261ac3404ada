import { describe, expect, it } from 'vitest';
import { newRef, newStreamKey, refOfStreamKey } from './media-network';
import { redactKeys } from './nginx-supervisor';

describe('stream keys of the media network', () => {
  it('name their live input, and nginx log lines never carry their secret part', () => {
    const ref = newRef('li');
    const key = newStreamKey(ref);
    expect(refOfStreamKey(key)).toBe(ref);
    expect(refOfStreamKey(`${ref}.short`)).toBeUndefined();
    expect(refOfStreamKey('../../etc/passwd')).toBeUndefined();
    const line = `[error] 7#7: *1 notify: push '${key}' to 'rtmp://127.0.0.1:1935/media/${ref}', publish: name='${key}'`;
    const redacted = redactKeys(line);
    expect(redacted).not.toContain(key.split('.')[1]);
    expect(redacted).toContain(`${ref}.[redacted]`);
  });
});
