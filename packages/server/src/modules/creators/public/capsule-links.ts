import { isWebUrl } from '../readiness/readiness';

/** Known hosts and the type and label a link to them gets; any other web address is a `website`. */
const KNOWN: Array<[RegExp, string, string]> = [
  [/(^|\.)instagram\.com$/, 'instagram', 'Instagram'],
  [/(^|\.)tiktok\.com$/, 'tiktok', 'TikTok'],
  [/(^|\.)(youtube\.com|youtu\.be)$/, 'youtube', 'YouTube'],
  [/(^|\.)(x\.com|twitter\.com)$/, 'x', 'X'],
  [/(^|\.)facebook\.com$/, 'facebook', 'Facebook'],
  [/(^|\.)spotify\.com$/, 'spotify', 'Spotify'],
  [/(^|\.)(music\.)?apple\.com$/, 'apple_music', 'Apple Music'],
  [/(^|\.)soundcloud\.com$/, 'soundcloud', 'SoundCloud'],
  [/(^|\.)boomplay\.com$/, 'boomplay', 'Boomplay'],
];

/** The profile's links as the public capsule lists them; text that is not a web address is left out. */
export function capsuleLinks(links: readonly string[]) {
  return links.filter(isWebUrl).map((url) => {
    const host = new URL(url).hostname.toLowerCase();
    const known = KNOWN.find(([pattern]) => pattern.test(host));
    return known ? { type: known[1], label: known[2], url } : { type: 'website', label: host.replace(/^www\./, ''), url };
  });
}
