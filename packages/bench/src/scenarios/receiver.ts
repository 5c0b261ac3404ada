import { createServer, type Server } from 'node:http';
import { verifyWebhook } from '@svc/webhook-verify';

/** A local webhook receiver: checks every signature and records how long each event took to arrive. */
export class Receiver {
  readonly latenciesMs: number[] = [];
  readonly seen = new Set<string>();
  badSignatures = 0;
  duplicates = 0;
  firstAt = 0;
  lastAt = 0;
  private server: Server | undefined;
  private secrets: string[] = [];

  /** Listens on a free loopback port; endpoint `i` posts to `/hook/<i>`. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void this.receive(req.url ?? '', req.headers['svc-signature'] as string | undefined, Buffer.concat(chunks).toString('utf8')).then((ok) => {
        res.writeHead(ok ? 200 : 400).end();
      }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  setSecrets(secrets: string[]): void {
    this.secrets = secrets;
  }

  private async receive(url: string, signature: string | undefined, body: string): Promise<boolean> {
    const arrived = Date.now();
    const endpoint = Number(/\/hook\/(\d+)/.exec(url)?.[1]);
    try {
      await verifyWebhook(body, signature ?? null, this.secrets[endpoint]!);
    } catch {
      this.badSignatures += 1;
      return false;
    }
    const event = JSON.parse(body) as { id: string; created_at: string };
    const key = `${endpoint}:${event.id}`;
    if (this.seen.has(key)) {
      this.duplicates += 1;
      return true;
    }
    this.seen.add(key);
    this.latenciesMs.push(arrived - Date.parse(event.created_at));
    this.firstAt ||= arrived;
    this.lastAt = arrived;
    return true;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
