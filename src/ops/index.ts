/** Operations as the app, the server and the CLI see them: health and readiness probes, Prometheus metrics, stop signals. */
export { Readiness } from './readiness.js';
export { opsRoutes } from './routes.js';
export { exitAfter, onStopSignal } from './shutdown.js';
