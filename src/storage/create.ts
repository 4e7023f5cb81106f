/** The storage a configuration names: DATA_DIR/uploads on disk, or STORAGE_URL's bucket. */
import type { Config } from '../../config/index.js';
import { S3Storage } from './s3.js';
import { LocalDiskStorage, type FileStorage, type SweepableStorage } from './storage.js';

export function createStorage(config: Pick<Config, 'storage'>): SweepableStorage {
  return config.storage.kind === 's3' ? new S3Storage(config.storage) : new LocalDiskStorage(config.storage.root);
}

/** Where the files are, for messages: the uploads folder, or s3://bucket/prefix/ (and its endpoint). */
export function describeStorage(storage: FileStorage): string {
  if (storage instanceof S3Storage) return storage.describe();
  if (storage instanceof LocalDiskStorage) return storage.root;
  return 'the configured storage';
}

/** Rejects with a clear message when the storage cannot be used (a bucket that does not answer); disk needs no check here. */
export async function checkStorage(storage: FileStorage): Promise<void> {
  if (storage instanceof S3Storage) await storage.check();
}
