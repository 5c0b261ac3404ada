import { connect, createServer, type Socket } from 'node:net';

export type ProxyRole = 'primary' | 'standby' | 'down';

export interface PgRoleProxy {
  port: number;
  /** Sessions open through it now. */
  open: () => number;
  /**
   * Changes what it stands for, as a failover changes a node: its open sessions are cut (a demoted primary
   * restarts), then new ones are read-only (`standby`), writable (`primary`) or refused (`down`).
   */
  become: (role: ProxyRole) => void;
  stop: () => Promise<void>;
}

const SSL_REQUEST = 80877103;
const PROTOCOL_3 = 196608;

/** The startup message with `options=-c default_transaction_read_only=on` added, as a hot standby answers. */
function readOnlyStartup(message: Buffer): Buffer {
  const extra = Buffer.from('options\0-c default_transaction_read_only=on\0');
  // The parameters end with one NUL; the extra pair goes before it.
  const out = Buffer.concat([message.subarray(0, message.length - 1), extra, Buffer.from([0])]);
  out.writeInt32BE(out.length, 0);
  return out;
}

/**
 * A TCP proxy to one PostgreSQL server that plays a node of a formation: forwarded as it is while `primary`,
 * with every session read-only by default while `standby` (what `SHOW transaction_read_only` shows on a hot
 * standby), closed while `down`. Two of them in front of the same database make a formation whose roles a test
 * switches in a moment, with the data the same on both.
 */
export async function startPgRoleProxy(target: { host: string; port: number }, role: ProxyRole): Promise<PgRoleProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    if (role === 'down') return client.destroy();
    const readOnly = role === 'standby';
    sockets.add(client);
    let upstream: Socket | null = null;
    let pending = Buffer.alloc(0);
    const close = () => {
      sockets.delete(client);
      client.destroy();
      upstream?.destroy();
    };
    client.on('error', close).on('close', close);
    const onStartData = (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      if (pending.length < 8) return;
      const length = pending.readInt32BE(0);
      if (pending.length < length) return;
      const code = pending.readInt32BE(4);
      const message = pending.subarray(0, length);
      pending = pending.subarray(length);
      if (code === SSL_REQUEST) {
        client.write('N');
        return onStartData(Buffer.alloc(0));
      }
      client.off('data', onStartData);
      upstream = connect(target.port, target.host);
      upstream.on('error', close).on('close', close);
      upstream.write(readOnly && code === PROTOCOL_3 ? readOnlyStartup(message) : message);
      if (pending.length) upstream.write(pending);
      client.pipe(upstream);
      upstream.pipe(client);
    };
    client.on('data', onStartData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    open: () => sockets.size,
    become: (next) => {
      role = next;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    stop: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
