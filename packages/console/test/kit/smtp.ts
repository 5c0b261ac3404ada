import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  to: string;
  raw: string;
  at: number;
}

/** A local SMTP server that keeps what it is sent: live-mode sign-in codes reach the tests through it. */
export async function startSmtp() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString()));
      stream.on('end', () => {
        for (const r of session.envelope.rcptTo) mails.push({ to: r.address.toLowerCase(), raw, at: Date.now() });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** The six-digit code of the first mail to `to` sent after `since`. */
    async codeFor(to: string, since: number, timeoutMs = 15_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const mail = mails.find((m) => m.to === to.toLowerCase() && m.at >= since && /\b\d{6}\b/.test(m.raw.replace(/=\r?\n/g, '')));
        if (mail) return /\b(\d{6})\b/.exec(mail.raw.replace(/=\r?\n/g, ''))![1]!;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no code mailed to ${to}`);
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
