/**
 * The applicants feature's operations, one module per use case (routes and the CLI import them
 * from here): applying (apply.ts), HR's reads (reads.ts: dashboard, insights, list, detail, resume,
 * export), status changes (status.ts), stages and the board (pipeline.ts), retention
 * (retention.ts), notes (notes.ts) and the timeline (timeline.ts).
 */
export * from './apply.service.js';
export * from './reads.service.js';
export * from './status.service.js';
export * from './retention.service.js';
export * from '../pipeline/service.js';
export * from '../notes/service.js';
export * from '../timeline/service.js';
