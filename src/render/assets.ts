/**
 * Reads public/assets/manifest.json written by scripts/build.mjs: bundle name -> hashed file URLs.
 * Read once per process; a missing manifest means the build did not run, which we say plainly.
 */
import fs from 'node:fs';
import path from 'node:path';

interface AssetEntry {
  js?: string;
  css?: string;
}
export type AssetManifest = Record<string, AssetEntry>;

export function loadManifest(rootDir: string): AssetManifest {
  const file = path.join(rootDir, 'public', 'assets', 'manifest.json');
  if (!fs.existsSync(file)) {
    throw new Error(`Asset manifest missing (${file}). Run "npm run build" first.`);
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as AssetManifest;
}
