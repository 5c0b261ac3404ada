import { describe, expect, it } from 'vitest';
import { computeReadiness, type ReadinessInput } from './readiness';

const base: ReadinessInput = {
  name: 'Nyashinski',
  handle: 'nyashinski',
  handleUnique: true,
  hasAvatar: false,
  hasCover: false,
  bio: null,
  hasVerifiedContact: false,
  links: [],
  joinEnabled: false,
  subscriptionEnabled: false,
  isPublic: true,
  externalStorefrontUrl: null,
  publicCapsuleUrl: 'https://svc.test/v1/public/capsules/nyashinski',
};

describe('computeReadiness', () => {
  it('counts the handle only when it is valid and unique, and blocks sharing without it', () => {
    expect(computeReadiness(base).completed_items).toContain('handle');
    for (const input of [{ handle: 'No Caps' }, { handle: 'ab' }, { handleUnique: false }, { handle: '' }]) {
      const r = computeReadiness({ ...base, ...input });
      expect(r.completed_items).not.toContain('handle');
      expect(r.share_blockers).toEqual(['handle_missing']);
      expect(r.status).toBe('draft');
    }
  });

  it('counts characters, not UTF-16 units, and ignores outer spaces in the bio', () => {
    expect(computeReadiness({ ...base, bio: '🎤'.repeat(19) }).completed_items).not.toContain('bio');
    expect(computeReadiness({ ...base, bio: '🎤'.repeat(20) }).completed_items).toContain('bio');
    expect(computeReadiness({ ...base, bio: `  ${'a'.repeat(19)}  ` }).completed_items).not.toContain('bio');
  });

  it('takes http and https links with a host name, and nothing else', () => {
    for (const link of ['https://example.com', 'http://example.com/x']) expect(computeReadiness({ ...base, links: [link] }).completed_items).toContain('links');
    for (const link of ['ftp://example.com', 'javascript:alert(1)', 'https://localhost', 'example.com']) {
      expect(computeReadiness({ ...base, links: [link] }).completed_items).not.toContain('links');
    }
  });
});
