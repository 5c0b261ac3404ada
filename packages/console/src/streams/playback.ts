/**
 * How the console plays an HLS link: natively where the browser plays HLS (Safari, iOS, some Chromium builds),
 * with hls.js over Media Source Extensions where it does not, and not at all otherwise (the link is shown).
 */
export type PlaybackWay = 'native' | 'hls.js' | 'none';

export function playbackWay(canPlayType: (type: string) => string, mediaSource: boolean): PlaybackWay {
  if (canPlayType('application/vnd.apple.mpegurl') !== '') return 'native';
  return mediaSource ? 'hls.js' : 'none';
}

/** A stream's or asset's duration as a person reads it: `1:05`, `1:02:03`. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}
