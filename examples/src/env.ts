/** The examples read the server and key from the environment, as `pnpm start` prints them. */
export function env(name: string, fallback?: string): string {
  const value = process.env[name] ?? fallback;
  if (!value) {
    process.stderr.write(`Set ${name} (pnpm start prints the demo tenant's keys).\n`);
    process.exit(2);
  }
  return value;
}
