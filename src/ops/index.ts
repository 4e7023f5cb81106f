/** Operations as the app, the server and the CLI see them: health and readiness probes, Prometheus metrics, stop signals. */
export { Readiness } from './lib/readiness.js';
export { opsRoutes } from './api.js';
export { exitAfter, onStopSignal } from './lib/shutdown.js';
