/** Operations as the app and the server see them: health and readiness probes and Prometheus metrics. */
export { Readiness } from './readiness.js';
export { opsRoutes } from './routes.js';
