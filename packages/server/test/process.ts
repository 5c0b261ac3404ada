import { type ChildProcess, spawn } from 'node:child_process';
import { builtServer, SERVER_DIR } from './built-server';

export { SERVER_DIR };

export interface ServerProcess {
  child: ChildProcess;
  /** Everything written to stdout so far. */
  output: () => string;
  url: Promise<string>;
  exited: Promise<number | null>;
}

/** Runs the server (or the CLI) as a real process, built as `pnpm start` runs it (`built-server.ts`). */
export function runServerProcess(env: Record<string, string>, entry: 'main' | 'cli' = 'main', args: string[] = []): ServerProcess {
  const child = spawn(process.execPath, [builtServer()[entry], ...args], {
    cwd: SERVER_DIR,
    env: { ...process.env, LOG_LEVEL: 'info', PORT: '0', SVC_MEDIA_NETWORK: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const onData = () => {
      const m = /"url":"(http:\/\/[^"]+)","msg":"listening"/.exec(out);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${out}\n${err}`)));
  });
  url.catch(() => {});
  return { child, output: () => out + err, url, exited };
}
