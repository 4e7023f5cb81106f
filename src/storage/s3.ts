/**
 * Uploads in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2...), named by STORAGE_URL:
 * the same keys as on disk (`ab/ab12...`), stored as `prefix + key`.
 *
 * Crash safety as on disk: `write` resolves only once S3 answered the PutObject (or the multipart
 * upload's completion), so a committed row never points at an object that is not there; a failed
 * write aborts its multipart upload and deletes the key, so nothing is left. A crash between the
 * write and the commit leaves an object without a row: the orphan sweep lists the prefix and
 * removes it. Buckets have no folders, so there are none to prune.
 */
import { createRequire } from 'node:module';
import { PassThrough, type Readable } from 'node:stream';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import type { S3Setting } from '../../config/index.js';
import { InFlight, StorageUnavailable, isStorageKey, newStorageKey, type StoredObject, type SweepableStorage } from './storage.js';

/**
 * S3's smallest multipart part. An upload is held in memory one part at a time (a resume under
 * 10 MB: at most two parts), since S3 needs each part's length before it is sent.
 */
const PART_SIZE = 5 * 1024 * 1024;
/** How long the start-up check waits for the bucket. */
const CHECK_TIMEOUT_MS = 10_000;

/** The error as one line: S3's code, the HTTP status when there was one, the message. */
function describeS3Error(err: unknown): string {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  const message = e?.message && e.message !== e.name && e.message !== 'UnknownError' ? `: ${e.message}` : '';
  return `${e?.name ?? 'Error'}${status ? ` (HTTP ${status})` : ''}${message}`;
}

/** A missing object (GetObject's NoSuchKey, HeadObject's bodiless 404), as opposed to a storage that cannot answer. */
function isMissing(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return name === 'NoSuchKey' || name === 'NotFound';
}

/** The AWS SDK is loaded only by a process that stores files in S3 (it is 20-odd MB of memory). */
const requireSdk = createRequire(import.meta.url);

export class S3Storage implements SweepableStorage {
  private readonly sdk = requireSdk('@aws-sdk/client-s3') as typeof ClientS3;
  private readonly client: ClientS3.S3Client;
  private readonly inFlight = new InFlight();

  constructor(private readonly s: S3Setting) {
    this.client = new this.sdk.S3Client({
      region: s.region,
      endpoint: s.endpoint ?? undefined,
      forcePathStyle: s.forcePathStyle,
      credentials: s.credentials ?? undefined,
      // Many S3-compatible servers do not take the SDK's default CRC32 trailers (aws-chunked bodies).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A storage that does not answer fails the request (a 503 or a failed upload), never hangs it.
      requestHandler: { connectionTimeout: 5000, socketTimeout: 60_000 },
    });
  }

  /** Where the files are, for messages: s3://bucket/prefix/ and the endpoint when it is not AWS. */
  describe(): string {
    return `s3://${this.s.bucket}/${this.s.prefix}${this.s.endpoint ? ` at ${this.s.endpoint}` : ''}`;
  }

  /** Throws a clear message unless the bucket answers (server start: a wrong bucket or key stops it at once). */
  async check(): Promise<void> {
    try {
      await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.s.bucket }), {
        abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
    } catch (err) {
      throw new Error(`Cannot reach the file storage (STORAGE_URL bucket ${this.describe()}): ${describeS3Error(err)}`);
    }
  }

  idle(): Promise<void> {
    return this.inFlight.idle();
  }

  newKey(): string {
    return newStorageKey();
  }

  private objectKey(key: string): string {
    if (!isStorageKey(key)) throw new Error('Invalid storage key');
    return this.s.prefix + key;
  }

  write(key: string, source: Readable): Promise<void> {
    return this.inFlight.track(this.upload(key, source));
  }

  private async upload(key: string, source: Readable): Promise<void> {
    let objectKey: string;
    try {
      objectKey = this.objectKey(key);
    } catch (err) {
      source.destroy();
      throw err;
    }
    // A refusal of the bytes (too large, wrong type) must reach the caller as it is, whatever the SDK makes of it.
    let sourceError: Error | null = null;
    // lib-storage takes a body's `length`, `size`, `start`/`end` or file `path` for its total
    // length and plans the parts on it; a source's own properties of those names (a byte counter
    // still at 0, a file that is still growing) would make it send wrong parts. It gets a plain
    // stream of unknown length instead, and learns the end when the stream ends.
    const body = new PassThrough();
    source.once('error', (err) => {
      sourceError = err;
      body.destroy(err);
    });
    source.pipe(body);
    const { Upload } = requireSdk('@aws-sdk/lib-storage') as typeof LibStorage;
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.s.bucket, Key: objectKey, Body: body, ContentType: 'application/octet-stream' },
      partSize: PART_SIZE,
      queueSize: 1,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      source.destroy();
      body.destroy();
      // The multipart upload is aborted by lib-storage; a PutObject or completion that landed
      // before the failure was seen is deleted here.
      await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.s.bucket, Key: objectKey })).catch(() => undefined);
      throw sourceError ?? new StorageUnavailable(describeS3Error(err));
    }
  }

  async read(key: string): Promise<Readable> {
    const objectKey = this.objectKey(key);
    try {
      const res = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.s.bucket, Key: objectKey }));
      return res.Body as Readable;
    } catch (err) {
      if (isMissing(err)) throw new Error(`No stored file ${key}`);
      throw new StorageUnavailable(describeS3Error(err));
    }
  }

  async exists(key: string): Promise<boolean> {
    const objectKey = this.objectKey(key);
    try {
      await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.s.bucket, Key: objectKey }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw new StorageUnavailable(describeS3Error(err));
    }
  }

  async remove(key: string): Promise<void> {
    await this.discard(key);
  }

  /** DeleteObject answers 204 for a missing key too. No folders: none is ever removed. */
  discard(key: string): Promise<{ folderRemoved: boolean }> {
    return this.inFlight.track(
      (async () => {
        await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.s.bucket, Key: this.objectKey(key) }));
        return { folderRemoved: false };
      })(),
    );
  }

  /** Every object under the prefix whose name is a key, page by page (1000 a request). */
  async *list(): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new this.sdk.ListObjectsV2Command({ Bucket: this.s.bucket, Prefix: this.s.prefix || undefined, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.startsWith(this.s.prefix) ? object.Key.slice(this.s.prefix.length) : null;
        if (!key || !isStorageKey(key)) continue;
        // No date: taken as new, so the sweep's grace period keeps it.
        yield { key, mtimeMs: object.LastModified?.getTime() ?? Date.now() };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async pruneEmptyFolders(): Promise<number> {
    return 0;
  }
}
