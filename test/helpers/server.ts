/** A port free right now on 127.0.0.1 (for a server that must know its address before it starts). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Starts the real app over real HTTP on a free port, on a fresh test database. */
import net, { type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createSite } from '../../src/app.js';
import { settleContext, type AppContext } from '../../src/context.js';
import { createAppContext } from '../../src/wiring.js';
import { listenHttp } from '../../src/http/listen.js';
import { createTestDb, type DbKind, type TestDb } from './db.js';

export interface TestServer {
  baseUrl: string;
  ctx: AppContext;
  testDb: TestDb;
  server: Server;
  close: () => Promise<void>;
}

/**
 * `ctxOverrides` may be a function of the fresh test database (e.g. a second Knex on the same
 * database through a proxy); a `db` it hands in is destroyed on close too.
 * The server has the production timeouts (src/http/listen.ts), unless a test that watches one
 * scales them down (`timeScale`); the interval at which Node checks them can be lowered. `port`:
 * a port chosen beforehand (freePort), for a PUBLIC_BASE_URL that must be the server's own.
 */
export async function startTestServer(
  kind: DbKind,
  env: Record<string, string> = {},
  ctxOverrides: Partial<AppContext> | ((t: TestDb) => Partial<AppContext>) = {},
  opts: { connectionsCheckingIntervalMs?: number; timeScale?: number; port?: number } = {},
): Promise<TestServer> {
  const testDb = await createTestDb(kind, env);
  const overrides = typeof ctxOverrides === 'function' ? ctxOverrides(testDb) : ctxOverrides;
  const ctx = createAppContext(testDb.config, { db: testDb.db, ...overrides });
  const server = await listenHttp(createSite(ctx).listener, { port: 0, host: '127.0.0.1', ...opts });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    ctx,
    testDb,
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await settleContext(ctx);
      if (ctx.db !== testDb.db) await ctx.db.destroy();
      await testDb.destroy();
    },
  };
}
