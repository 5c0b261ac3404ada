import { useEffect, useRef, useState } from 'react';
import { playbackWay } from './playback';

/**
 * A muted preview of an HLS link. hls.js is loaded only when the browser cannot play HLS itself, so it weighs
 * nothing on any other screen. Its worker is off: the console's CSP admits workers from its own files only.
 */
export function HlsPlayer({ url, title }: { url: string; title: string }) {
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const el = video.current;
    if (!el) return;
    setProblem(null);
    const way = playbackWay((t) => el.canPlayType(t), typeof MediaSource !== 'undefined');
    if (way === 'native') {
      el.src = url;
      return () => el.removeAttribute('src');
    }
    if (way === 'none') {
      setProblem('This browser cannot play HLS here; open the link in a player.');
      return;
    }
    let destroy = () => {};
    let stopped = false;
    void import('hls.js/light').then(({ default: Hls }) => {
      if (stopped) return;
      if (!Hls.isSupported()) return setProblem('This browser cannot play HLS here; open the link in a player.');
      const hls = new Hls({ enableWorker: false });
      hls.on(Hls.Events.ERROR, (_e, data) => {
        if (data.fatal) setProblem(`The player stopped: ${data.details}. The link may have nothing to show yet.`);
      });
      hls.loadSource(url);
      hls.attachMedia(el);
      destroy = () => hls.destroy();
    });
    return () => {
      stopped = true;
      destroy();
    };
  }, [url]);

  return (
    <figure className="player">
      <video ref={video} controls muted playsInline aria-label={`Preview of ${title}`} data-testid="preview-video" />
      <figcaption>
        {problem && (
          <span className="muted" role="status">
            {problem}{' '}
          </span>
        )}
        <a href={url} target="_blank" rel="noreferrer">
          Open the HLS link
        </a>
      </figcaption>
    </figure>
  );
}
