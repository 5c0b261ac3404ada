import { execFileSync } from 'node:child_process';

export interface Run {
  stdout: string;
  ms: number;
}

/** Runs a command to its end; a failure throws with what it printed. */
export function run(command: string, args: string[], cwd: string, timeoutMs = 120_000): Run {
  const started = performance.now();
  try {
    const stdout = execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', timeout: timeoutMs });
    return { stdout, ms: performance.now() - started };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? e.message}`);
  }
}

/** The oldest Node.js that the packages' `engines` name, run through npx from the registry's `node` package. */
export const OLDEST_NODE = '20.0.0';
export const oldestNode = (script: string, cwd: string) =>
  run('npx', ['--yes', '--package', `node@${OLDEST_NODE}`, '--', 'node', script], cwd, 300_000);
