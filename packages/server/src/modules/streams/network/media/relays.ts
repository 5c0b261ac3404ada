import { type ChildProcess, spawn } from 'node:child_process';
import type { Logger } from 'pino';

export interface RelayTarget {
  /** The target's ref on the media network. */
  ref: string;
  url: string;
  streamKey: string;
}

/** `rtmp://host/app` + key → the address ffmpeg publishes to. */
export const targetAddress = (t: Pick<RelayTarget, 'url' | 'streamKey'>) => `${t.url.replace(/\/+$/, '')}/${t.streamKey}`;

/**
 * Simulcast: one ffmpeg per target copying the live input from the loopback `media` application to the
 * target (`-c copy`, no transcoding). A relay that dies while its input is live is started again.
 */
export class SimulcastRelays {
  private readonly running = new Map<string, { input: string; child: ChildProcess; target: RelayTarget }>();
  private stopped = false;

  constructor(
    private readonly ffmpeg: string,
    private readonly sourceUrl: (inputRef: string) => string,
    private readonly log: Logger,
  ) {}

  start(inputRef: string, target: RelayTarget): void {
    if (this.stopped || this.running.has(target.ref)) return;
    const child = spawn(
      this.ffmpeg,
      ['-hide_banner', '-loglevel', 'error', '-rw_timeout', '10000000', '-i', this.sourceUrl(inputRef), '-c', 'copy', '-f', 'flv', targetAddress(target)],
      { stdio: ['ignore', 'ignore', 'ignore'] },
    );
    const entry = { input: inputRef, child, target };
    this.running.set(target.ref, entry);
    child.once('exit', (code) => {
      if (this.running.get(target.ref) !== entry) return;
      this.running.delete(target.ref);
      // The target's key is in ffmpeg's arguments and output, so neither is logged.
      this.log.warn({ liveInput: inputRef, target: target.ref, code }, 'media network: simulcast relay ended; retrying while live');
      setTimeout(() => this.onRetry?.(inputRef, target), 2_000).unref();
    });
  }

  /** Set by the network: restarts a relay only while its input is still being published. */
  onRetry: ((inputRef: string, target: RelayTarget) => void) | undefined;

  isRunning(targetRef: string): boolean {
    return this.running.has(targetRef);
  }

  stopTarget(targetRef: string): void {
    const entry = this.running.get(targetRef);
    if (!entry) return;
    this.running.delete(targetRef);
    entry.child.kill('SIGTERM');
  }

  stopInput(inputRef: string): void {
    for (const [ref, entry] of this.running) if (entry.input === inputRef) this.stopTarget(ref);
  }

  /** Stops every relay; `final` also refuses new ones (shutdown). */
  stopAll(final = true): void {
    if (final) this.stopped = true;
    for (const ref of [...this.running.keys()]) this.stopTarget(ref);
  }
}
