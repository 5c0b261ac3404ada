import type { IncomingMessage } from 'node:http';

export interface RefusedBodyLimits {
  /** Bytes of refused bodies read and dropped per second, all connections together. */
  bytesPerSecond: number;
  /** The most read of one refused body's rest; past it the connection is closed. */
  maxBytes: number;
  /** How long one refused body's rest may take to arrive; past it the connection is closed. */
  maxMs: number;
}

/**
 * 64 MB/s costs the server about 5 % of a core to read and drop; 200 attackers sending 1 MB bodies then wait about
 * 3 s each for their next answer, which is the point.
 */
export const REFUSED_BODY_LIMITS: RefusedBodyLimits = { bytesPerSecond: 64 * 1024 * 1024, maxBytes: 2 * 1024 * 1024, maxMs: 15_000 };

/** How often the shared budget is topped up while some body waits for it. */
const TICK_MS = 20;
/** What one reader let go on is expected to read before it pauses again (a socket read). */
const CHUNK = 64 * 1024;

/**
 * Reads and drops the rest of bodies whose request was refused, so that the connection can be closed cleanly or
 * used again. Closing a socket with unread bytes makes the kernel answer them with a reset, and a client still
 * sending its body then loses the answer it was sent (it reads `ECONNRESET`, not the `400`). The reading is bounded
 * so that refusing stays cheaper than what it refuses: all connections share one budget of bytes per second (a
 * body over budget pauses, and TCP makes its sender wait), and each body's rest is read up to a size and a time,
 * after which its connection is closed anyway. The answer is sent at once, before the rest is read, so a client
 * that reads while it sends has it straight away.
 */
export class RefusedBodies {
  private budget: number;
  private readonly burst: number;
  private readonly waiting: Array<() => void> = [];
  private ticking: NodeJS.Timeout | undefined;
  private last = performance.now();

  constructor(private readonly limits: RefusedBodyLimits = REFUSED_BODY_LIMITS) {
    this.burst = limits.bytesPerSecond / 10;
    this.budget = this.burst;
  }

  /**
   * Drops what is left of `req`'s body within the limits; the connection stays usable once it is all read. False,
   * reading nothing, when the body's declared length is over `maxBytes`: the caller closes the connection instead.
   */
  drop(req: IncomingMessage): boolean {
    if (req.complete || req.destroyed) return true;
    if (Number(req.headers['content-length'] ?? 0) > this.limits.maxBytes) return false;
    let read = 0;
    let waiting = false;
    const finish = () => {
      clearTimeout(deadline);
      req.off('data', onData);
      req.off('end', finish);
      req.off('close', finish);
    };
    // Past a bound the rest is not worth reading: the connection goes once its answer is written.
    const giveUp = () => {
      finish();
      req.pause();
      req.socket.destroySoon();
    };
    const deadline = setTimeout(giveUp, this.limits.maxMs);
    deadline.unref();
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > this.limits.maxBytes) return giveUp();
      if (!this.take(chunk.length) && !waiting) {
        waiting = true;
        req.pause();
        this.wait(() => {
          waiting = false;
          if (!req.destroyed) req.resume();
        });
      }
    };
    req.on('data', onData);
    req.once('end', finish);
    req.once('close', finish);
    req.resume();
    return true;
  }

  /** Spends `bytes` of the shared budget; false once it is spent (the reader must wait for the next top-up). */
  private take(bytes: number): boolean {
    this.refill();
    this.budget -= bytes;
    return this.budget > 0;
  }

  /**
   * Tops the budget up for the time since the last top-up, but never for more than one tick: when the thread is
   * busy (or the process gets little of the machine) the ticks come late and refused bodies get less, so the
   * requests being served come first.
   */
  private refill(): void {
    const now = performance.now();
    const credited = Math.min(now - this.last, TICK_MS);
    this.budget = Math.min(this.burst, this.budget + (credited / 1000) * this.limits.bytesPerSecond);
    this.last = now;
  }

  private wait(resume: () => void): void {
    this.waiting.push(resume);
    this.ticking ??= setInterval(() => this.tick(), TICK_MS);
    this.ticking.unref();
  }

  /** Lets waiting readers go on, first come first served, while the budget lasts. */
  private tick(): void {
    this.refill();
    for (let allowance = this.budget; allowance > 0 && this.waiting.length > 0; allowance -= CHUNK) this.waiting.shift()!();
    if (this.waiting.length === 0) {
      clearInterval(this.ticking);
      this.ticking = undefined;
    }
  }
}

/** The process's one budget for refused bodies. */
export const refusedBodies = new RefusedBodies();
