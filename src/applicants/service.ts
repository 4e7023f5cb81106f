/**
 * The applicants feature's operations, one module per use case (routes and the CLI import them
 * from here): applying (apply.ts), HR's reads (reads.ts: dashboard, insights, list, detail, resume,
 * export), status changes (status.ts), stages and the board (pipeline.ts), retention
 * (retention.ts), notes (notes.ts) and the timeline (timeline.ts).
 */
export * from './apply.js';
export * from './reads.js';
export * from './status.js';
export * from './retention.js';
export * from './pipeline.js';
export * from './notes.js';
export * from './timeline.js';
