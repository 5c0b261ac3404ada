import { describe, expect, it } from 'vitest';
import { formatDuration, playbackWay } from './playback';

describe('playbackWay', () => {
  it('plays natively where the browser plays HLS, with hls.js over MSE otherwise, else not at all', () => {
    expect(playbackWay((t) => (t === 'application/vnd.apple.mpegurl' ? 'maybe' : ''), true)).toBe('native');
    expect(playbackWay(() => '', true)).toBe('hls.js');
    expect(playbackWay(() => '', false)).toBe('none');
  });
});

describe('formatDuration', () => {
  it('writes minutes and seconds, and hours when there are any', () => {
    expect(formatDuration(5)).toBe('0:05');
    expect(formatDuration(65.4)).toBe('1:05');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(null)).toBe('—');
  });
});
