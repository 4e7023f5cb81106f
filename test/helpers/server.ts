/** Starts the real app over real HTTP on a free port, on a fresh test database. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../src/app.js';
import { createContext, type AppContext } from '../../src/context.js';
import { createTestDb, type DbKind, type TestDb } from './db.js';

export interface TestServer {
  baseUrl: string;
  ctx: AppContext;
  testDb: TestDb;
  close: () => Promise<void>;
}

export async function startTestServer(kind: DbKind, env: Record<string, string> = {}, ctxOverrides: Partial<AppContext> = {}): Promise<TestServer> {
  const testDb = await createTestDb(kind, env);
  const ctx = createContext(testDb.config, { db: testDb.db, ...ctxOverrides });
  const app = createApp(ctx);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    ctx,
    testDb,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ctx.views.flush().catch(() => undefined);
      await testDb.destroy();
    },
  };
}
