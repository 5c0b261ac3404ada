import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';

const STAYED_UP_MS = 60_000;

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Stream keys are `<ref>.<secret>`: nginx logs the name it relays, so the secret part is cut from every line. */
export const redactKeys = (line: string) => line.replace(/(m(?:li)_[0-9a-f]{20})\.[A-Za-z0-9]+/g, '$1.[redacted]');

/**
 * Runs nginx in the foreground as a child of the server, the way the embedded PostgreSQL runs: a stale
 * nginx from a killed run is stopped first, a crash is followed by a restart (with backoff) and a call to
 * `onRestart` so the server can reconcile its publishers, and `stop` ends it gracefully.
 */
export class NginxSupervisor {
  private child: ChildProcess | undefined;
  private stopping = false;
  private restarts = 0;
  /** When the running nginx became ready: one that stays up this long has recovered, and the backoff starts over. */
  private upSince = 0;
  /** Restarts are for an nginx that ran; one that cannot start at all is reported to `start`'s caller. */
  private ran = false;
  private timer: NodeJS.Timeout | undefined;
  /** Resolves once nginx has taken the configuration and is running. */
  private started: Promise<void> | undefined;

  constructor(
    private readonly binary: string,
    private readonly prefix: string,
    private readonly configPath: string,
    private readonly log: Logger,
    private readonly onRestart: () => Promise<void>,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    await this.stopStale();
    this.started = this.launch();
    await this.started;
  }

  /** A kill -9 of the server leaves nginx running with its pid file: stop that one before taking its ports. */
  private async stopStale(): Promise<void> {
    const pidFile = join(this.prefix, 'nginx.pid');
    if (!existsSync(pidFile)) return;
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    const cmdline = existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8') : '';
    if (pid > 0 && isAlive(pid) && cmdline.includes('nginx') && cmdline.includes(this.configPath)) {
      this.log.warn({ pid }, 'media network: stopping an nginx left running by an earlier run');
      process.kill(pid, 'SIGTERM');
      for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(100);
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(pidFile, { force: true });
    rmSync(join(this.prefix, 'control.sock'), { force: true });
  }

  private launch(): Promise<void> {
    return new Promise((resolve, reject) => {
      rmSync(join(this.prefix, 'control.sock'), { force: true });
      // Its own process group: workers of a master that died are killed with it, or they would keep the ports.
      const child = spawn(this.binary, ['-p', this.prefix, '-c', this.configPath, '-e', 'stderr'], {
        stdio: ['ignore', 'ignore', 'pipe'],
        detached: true,
      });
      this.child = child;
      let output = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        for (const line of redactKeys(chunk.toString('utf8')).split('\n').filter(Boolean)) {
          output = (output + line + '\n').slice(-4000);
          // nginx-rtmp logs an `on_publish` relay as an error; it is the normal path here.
          if (line.includes('notify: push')) this.log.debug({ nginx: line }, 'media network nginx');
          else this.log.warn({ nginx: line }, 'media network nginx');
        }
      });
      // nginx reports nothing when it starts well: it is up once its control socket exists.
      const ready = setInterval(() => {
        if (existsSync(join(this.prefix, 'control.sock'))) {
          clearInterval(ready);
          this.ran = true;
          this.upSince = Date.now();
          resolve();
        }
      }, 50);
      child.once('error', (err) => {
        clearInterval(ready);
        reject(err);
      });
      child.once('exit', (code, signal) => {
        clearInterval(ready);
        if (this.child === child) this.child = undefined;
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // the group is gone already
        }
        if (this.stopping) return;
        reject(new Error(`nginx exited with ${signal ?? `code ${code}`}:\n${output}`));
        if (this.ran) this.scheduleRestart(code, signal);
      });
    });
  }

  private scheduleRestart(code: number | null, signal: NodeJS.Signals | null): void {
    // An nginx that starts and then dies at once (a port taken by another process, say) must not be restarted four
    // times a second for ever: the backoff only starts over after a run that lasted.
    if (Date.now() - this.upSince >= STAYED_UP_MS) this.restarts = 0;
    const delay = Math.min(30_000, 250 * 2 ** Math.min(this.restarts++, 7));
    this.log.error({ code, signal, restartInMs: delay }, 'media network: nginx stopped; restarting it');
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.stopping) return;
      this.launch().then(
        async () => {
          this.log.info({ pid: this.child?.pid }, 'media network: nginx restarted');
          await this.onRestart().catch((err) => this.log.error({ err }, 'media network: reconciling after a restart failed'));
        },
        () => undefined, // the exit handler schedules the next try
      );
    }, delay);
    this.timer.unref();
  }

  /** Graceful stop (SIGQUIT lets nginx finish its writes), forced after five seconds. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGQUIT');
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(force);
  }
}
