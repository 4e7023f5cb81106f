/**
 * How the server and the CLI are bundled for Node (scripts/build.mjs builds dist/ with it, and
 * bench/apply.ts its own copy of the server).
 */

/**
 * The packages dist/ loads from node_modules instead of carrying in its bundles. Everything else is
 * bundled: Node spends most of a command's start finding and compiling a package's files one by
 * one (zod, lodash under knex, undici and libphonenumber-js are a hundred or more each), so
 * `careers-admin` and `npm start` start on a little over half the CPU (bench/README, "Start-up").
 */
const NODE_EXTERNAL = [
  // Native addons.
  'better-sqlite3',
  'sharp',
  // Read files that sit beside their own code at run time (pino's transport threads, pdfkit's fonts).
  'pino',
  'pino-pretty',
  'pdfkit',
  // Call Node's deprecated Buffer() (archiver under exceljs, fd-slicer under word-extractor), which
  // Node warns about only in code outside node_modules.
  'exceljs',
  'word-extractor',
  // Loaded only when the settings ask for them (STORAGE_URL=s3://..., a mysql DATABASE_URL).
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
  'mysql2',
  // knex's other dialects' drivers, which knex names but this project does not install.
  'pg',
  'pg-query-stream',
  'oracledb',
  'tedious',
  'sqlite3',
  'mysql',
  'mariadb',
];

export const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: ['node20'],
  external: NODE_EXTERNAL,
  // Bundled CommonJS packages call require(): ESM has none, so every bundle makes one.
  banner: {
    js: "import { createRequire as createRequireForBundledPackages } from 'node:module'; const require = createRequireForBundledPackages(import.meta.url);",
  },
};
