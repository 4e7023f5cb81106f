/**
 * A TCP proxy in front of the test MariaDB, so tests can take "the database" away without
 * touching the real server (other suites and engineers use it): stop it (connections cut, new
 * ones refused), make it accept connections that never answer, answer them with MySQL's own
 * "Too many connections" error, drop one connection exactly around one statement (a COMMIT), or
 * partition the network (nothing passes, nothing is closed).
 * It reads the client's MySQL packets (3-byte length, sequence id, payload) only to find that
 * statement: mysql2's `query` sends SQL as text (COM_QUERY, 0x03).
 */
import net from 'node:net';
import { once } from 'node:events';

export type ProxyMode = 'forward' | 'hang' | 'too-many';
/**
 * `before`: the connection is cut and the server never receives the statement. `after`: the
 * server runs it, the connection is cut before its answer reaches the client. `partition-before`
 * and `partition-after`: the same moments, but the network is partitioned instead of cut
 * (`partition()`: nothing passes, nothing is closed).
 */
type StatementFault = 'before' | 'after' | 'partition-before' | 'partition-after';

export interface TcpProxy {
  port: number;
  /** How new connections are treated (open ones go on as they are). */
  mode: ProxyMode;
  /** Stops listening and cuts every open connection: connections are now refused. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Cuts every open connection, keeps listening. */
  cutAll(): void;
  /**
   * A network partition: nothing passes any more either way on the open connections, which stay
   * open (no FIN, no RST), and new connections are accepted and never answered.
   */
  partition(): void;
  /** The partition ends: the open connections forward again (what waited is delivered), new ones are served. */
  heal(): void;
  /** The connection that next sends a statement matching `pattern` is cut as `fault` says; resolves once it was. */
  failNext(pattern: RegExp, fault: StatementFault): Promise<void>;
  close(): Promise<void>;
}

/** MySQL's ERR packet for ER_CON_COUNT_ERROR, as a server at max_connections sends it instead of its greeting. */
function tooManyConnectionsPacket(): Buffer {
  const payload = Buffer.concat([Buffer.from([0xff, 1040 & 0xff, 1040 >> 8]), Buffer.from('#08004Too many connections', 'latin1')]);
  const header = Buffer.alloc(4);
  header.writeUIntLE(payload.length, 0, 3);
  header[3] = 0;
  return Buffer.concat([header, payload]);
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let armed: { pattern: RegExp; fault: StatementFault; fired: () => void } | null = null;
  let mode: ProxyMode = 'forward';

  let partitioned = false;
  const partition = () => {
    partitioned = true;
    mode = 'hang';
    for (const s of sockets) s.pause();
  };
  const track = (s: net.Socket) => {
    sockets.add(s);
    if (partitioned) s.pause();
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  };

  const onConnection = (client: net.Socket) => {
    track(client);
    if (mode === 'hang') return; // accepted, never answered
    if (mode === 'too-many') {
      client.end(tooManyConnectionsPacket());
      return;
    }
    const server = net.connect(target.port, target.host);
    track(server);
    const cut = () => {
      client.destroy();
      server.destroy();
    };
    client.on('close', () => server.destroy());
    server.on('close', () => client.destroy());

    let pending: Buffer = Buffer.alloc(0);
    let swallowReply: (() => void) | null = null;
    client.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= 4) {
        const size = 4 + pending.readUIntLE(0, 3);
        if (pending.length < size) break;
        const packet = pending.subarray(0, size);
        pending = pending.subarray(size);
        if (armed && packet[4] === 0x03 && armed.pattern.test(packet.subarray(5, 5 + 200).toString('utf8'))) {
          const { fault, fired } = armed;
          armed = null;
          if (fault === 'before') {
            cut();
            fired();
            return;
          }
          if (fault === 'partition-before') {
            partition();
            fired();
            return;
          }
          swallowReply = () => {
            if (fault === 'partition-after') partition();
            else cut();
            fired();
          };
        }
        server.write(packet);
      }
    });
    server.on('data', (chunk: Buffer) => {
      if (swallowReply) {
        // The server has run it (committed) and answered; the client never hears it.
        const fault = swallowReply;
        swallowReply = null;
        fault();
        return;
      }
      client.write(chunk);
    });
  };

  const listener = net.createServer(onConnection);
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const port = (listener.address() as net.AddressInfo).port;
  let current: net.Server | null = listener;

  const cutAll = () => {
    for (const s of sockets) s.destroy();
  };
  const stop = async () => {
    const s = current;
    current = null;
    cutAll();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  return {
    port,
    get mode() {
      return mode;
    },
    set mode(m: ProxyMode) {
      mode = m;
    },
    stop,
    start: async () => {
      if (current) return;
      const s = net.createServer(onConnection);
      s.listen(port, '127.0.0.1');
      await once(s, 'listening');
      current = s;
    },
    cutAll,
    partition,
    heal: () => {
      partitioned = false;
      mode = 'forward';
      for (const s of sockets) s.resume();
    },
    failNext: (pattern, fault) => new Promise<void>((resolve) => (armed = { pattern, fault, fired: resolve })),
    close: stop,
  };
}

/** The same MySQL URL, through the proxy. */
export function viaProxy(databaseUrl: string, proxy: TcpProxy): string {
  const u = new URL(databaseUrl);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}

/** Host and port of a MySQL URL (the real server behind the proxy). */
export function mysqlTarget(databaseUrl: string): { host: string; port: number } {
  const u = new URL(databaseUrl);
  return { host: u.hostname, port: Number(u.port || 3306) };
}
