import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server in the test process: it takes mail for any address except the `refused` ones (550 at
 * RCPT TO) and answers `421` (try later) to the `busy` ones; each received email is parsed with mailparser.
 */
export class SmtpInbox {
  readonly received: ParsedMail[] = [];
  readonly refused = new Set<string>();
  readonly busy = new Set<string>();
  private readonly server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const to = address.address.toLowerCase();
        if (this.refused.has(to)) return callback(Object.assign(new Error('5.1.1 No such user here'), { responseCode: 550 }));
        if (this.busy.has(to)) return callback(Object.assign(new Error('4.3.2 Try again later'), { responseCode: 421 }));
        callback();
      },
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.received.push(mail);
            callback();
          })
          .catch(callback);
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = ((this.server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  to(address: string): ParsedMail[] {
    return this.received.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.value.some((v) => v.address === address)));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
