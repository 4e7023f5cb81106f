/**
 * The HTTP server and its timeouts, in one place: src/server.ts listens through here, and so does
 * the tests' server (test/helpers/server.ts), so the tests exercise the real settings.
 *
 * - headers: a client has 20 s from its first byte (or from connecting) to finish the request
 *   headers, else it gets 408 and the connection is closed (slowloris);
 * - request: 10 minutes for the whole request, long enough for the largest application (a 10 MB
 *   resume plus up to 2 MB of text) over a slow mobile uplink: 12 MiB x 8 = 100.7 Mbit, which at
 *   170 kbit/s takes 592 s;
 * - keep-alive: an idle connection stays open 65 s after its last answer, longer than the idle
 *   timeout of common load balancers (AWS ALB 60 s, nginx upstream keepalive_timeout 60 s), so
 *   the balancer, not Node, closes idle connections and never reuses one Node just closed.
 *   In Node 18+ the headers timer of a kept-alive connection starts with the first byte of the
 *   next request, not at the end of the previous answer, so headersTimeout can be below
 *   keepAliveTimeout (the old "headersTimeout > keepAliveTimeout" rule no longer applies).
 *
 * Node checks the headers and request deadlines every `connectionsCheckingIntervalMs`, so a
 * deadline is enforced up to that much late; tests lower it to check the cut-off quickly. Node's
 * deadlines run on its own clock, which no fake timer reaches, so tests that watch one pass
 * `timeScale` instead: every deadline and the checking interval divided by it, in proportion.
 */
import http, { type RequestListener, type Server } from 'node:http';

export const HTTP_TIMEOUTS = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 600_000,
  keepAliveTimeoutMs: 65_000,
  connectionsCheckingIntervalMs: 5_000,
} as const;

export interface ListenOptions {
  port: number;
  host?: string;
  /** Only tests lower it. */
  connectionsCheckingIntervalMs?: number;
  /** Only tests set it: 10 makes every deadline a tenth of the real one. */
  timeScale?: number;
}

function createHttpServer(app: RequestListener, opts: ListenOptions): Server {
  const scale = opts.timeScale ?? 1;
  return http.createServer(
    {
      headersTimeout: HTTP_TIMEOUTS.headersTimeoutMs / scale,
      requestTimeout: HTTP_TIMEOUTS.requestTimeoutMs / scale,
      keepAliveTimeout: HTTP_TIMEOUTS.keepAliveTimeoutMs / scale,
      connectionsCheckingInterval: (opts.connectionsCheckingIntervalMs ?? HTTP_TIMEOUTS.connectionsCheckingIntervalMs) / scale,
    },
    app,
  );
}

/** Listens with the settings above; rejects when the port cannot be taken (in use, no permission). */
export function listenHttp(app: RequestListener, opts: ListenOptions): Promise<Server> {
  const server = createHttpServer(app, opts);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
