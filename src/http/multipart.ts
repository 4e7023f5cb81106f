/**
 * Streams a multipart/form-data request with busboy under hard limits: text fields are collected
 * (bounded in number and size), each file goes straight to storage under a random key while it is
 * hashed, counted and its first bytes checked. Files are taken only in the fields named in
 * `fileRules`, one per field, each with its own size and type rules, and all of them together
 * within `maxTotalFileBytes`. Nothing is buffered whole.
 *
 * The promise settles only when everything is in place: on success the caller owns the stored
 * files (and must remove them if it later gives up); on any failure (a limit crossed, a refused
 * file, a malformed body, the client going away) every file of the request, partial or complete,
 * is already removed when it rejects.
 * The rest of a refused body is read and thrown away (up to a cap) so the client, still sending,
 * reliably receives the error response instead of a connection reset (src/http/unread-body.ts).
 */
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { FileStorage } from '../storage/storage.js';
import { HttpError, ValidationError } from './errors.js';
import { discardUnreadBody } from './unread-body.js';

/** What one file field takes. */
export interface FileRule {
  maxBytes: number;
  /** Field message when the file crosses maxBytes. */
  tooLargeMessage: string;
  /** Number of bytes handed to checkHead. */
  headBytes: number;
  /** Decides from the first bytes (or the whole file, if shorter) whether to keep going; a message refuses the file. */
  checkHead: (head: Buffer) => string | null;
  /** How many bytes from the end of the file to keep in memory for a later check (by head). */
  tailBytes: (head: Buffer) => number;
}

export interface MultipartOptions {
  /** The parts that may be files, by field name. */
  fileRules: ReadonlyMap<string, FileRule>;
  /** All files of one request together. */
  maxTotalFileBytes: number;
  maxFields: number;
  maxFieldBytes: number;
  /** All text fields together. */
  maxTextBytes: number;
  maxParts: number;
  /** The 415's detail for a body that is not multipart/form-data. */
  notMultipartMessage: string;
}

export interface ReceivedFile {
  key: string;
  /** As the client named it (busboy already dropped any path); sanitise before storing. */
  clientName: string;
  clientType: string;
  size: number;
  sha256: string;
  head: Buffer;
  tail: Buffer;
}

export interface ReceivedForm {
  fields: Map<string, string>;
  /** Text fields sent more than once (the first value is kept in `fields`). */
  repeated: Set<string>;
  /** The files received, by field; a field whose part was empty ("no file chosen") is absent. */
  files: Map<string, ReceivedFile>;
}

/** The client closed the connection before the body was complete (nobody reads the answer). */
class ClientAborted extends HttpError {
  constructor() {
    super(400, 'Client closed the connection before the upload finished.', { detail: 'The upload was interrupted.' });
  }
}

function isMultipart(req: IncomingMessage): boolean {
  return /^multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? '');
}

/** Hashes, counts and checks the file's bytes on their way to storage. */
class FileInspector extends Transform {
  /**
   * The bytes seen so far. Not `size`: the S3 driver's upload helper (@aws-sdk/lib-storage) reads
   * a body's `size` as its total length, and 0 at the start made every upload past one 5 MB part fail.
   */
  bytesSeen = 0;
  private hash = createHash('sha256');
  private headParts: Buffer[] = [];
  private headLength = 0;
  head: Buffer | null = null;
  private tailParts: Buffer[] = [];
  private tailLength = 0;
  private keepTail = 0;

  /**
   * `noneIfEmpty`: an empty part with an empty name is "no file chosen", not an empty file.
   * `total` counts the bytes of every file of the request.
   */
  constructor(
    private readonly field: string,
    private readonly rule: FileRule,
    private readonly noneIfEmpty: boolean,
    private readonly total: { bytes: number; max: number },
  ) {
    super();
  }

  _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytesSeen += chunk.length;
    this.total.bytes += chunk.length;
    if (this.bytesSeen > this.rule.maxBytes) {
      cb(refuse(this.field, this.rule.tooLargeMessage));
      return;
    }
    if (this.total.bytes > this.total.max) {
      cb(badForm('The files are too large together.'));
      return;
    }
    this.hash.update(chunk);
    if (!this.head) {
      this.headParts.push(chunk.subarray(0, this.rule.headBytes - this.headLength));
      this.headLength += this.headParts[this.headParts.length - 1].length;
      if (this.headLength >= this.rule.headBytes) {
        const err = this.decideHead();
        if (err) {
          cb(err);
          return;
        }
      }
    }
    if (this.keepTail) {
      this.tailParts.push(chunk);
      this.tailLength += chunk.length;
      // Drop whole chunks from the front while the rest still covers the tail.
      while (this.tailParts.length > 1 && this.tailLength - this.tailParts[0].length >= this.keepTail) {
        this.tailLength -= this.tailParts.shift()!.length;
      }
    }
    // Chunks go on as they came. Gathering them into larger writes saved a little CPU but cost
    // noticeably more memory under the benchmark's concurrent uploads (bench/README.md).
    cb(null, chunk);
  }

  _flush(cb: TransformCallback): void {
    if (!this.head && this.bytesSeen === 0 && this.noneIfEmpty) cb();
    else cb(this.head ? null : this.decideHead());
  }

  private decideHead(): Error | null {
    this.head = Buffer.concat(this.headParts);
    this.headParts = [];
    const message = this.rule.checkHead(this.head);
    if (message) return refuse(this.field, message);
    this.keepTail = this.rule.tailBytes(this.head);
    return null;
  }

  digest(): string {
    return this.hash.digest('hex');
  }

  tail(): Buffer {
    const all = Buffer.concat(this.tailParts, this.tailLength);
    return all.subarray(Math.max(0, all.length - this.keepTail));
  }
}

function refuse(field: string, message: string): ValidationError {
  return new ValidationError({ [field]: [message] });
}

function badForm(detail: string): ValidationError {
  return new ValidationError({}, detail);
}

/** A file part in a field that takes none. */
function unexpectedFileMessage(rules: ReadonlyMap<string, FileRule>): string {
  const names = [...rules.keys()].map((n) => `"${n}"`);
  if (names.length === 0) return 'This form takes no files.';
  if (names.length === 1) return `Only one file can be uploaded, in the field ${names[0]}.`;
  return `Files can be uploaded only in the fields ${names.join(', ')}, one each.`;
}

/** More file parts than file fields: one field was sent twice. */
function tooManyFiles(rules: ReadonlyMap<string, FileRule>): ValidationError {
  const [only] = rules.keys();
  return rules.size === 1 ? refuse(only, `Only one ${only} file can be uploaded.`) : badForm('The form has more files than file fields.');
}

export function receiveMultipart(req: IncomingMessage, storage: FileStorage, opts: MultipartOptions): Promise<ReceivedForm> {
  if (!isMultipart(req)) {
    return Promise.reject(new HttpError(415, 'Unsupported content type', { detail: opts.notMultipartMessage }));
  }
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: {
        fieldNameSize: 100,
        fieldSize: opts.maxFieldBytes + 1,
        fields: opts.maxFields,
        // One more file than there are file fields is seen (and refused with a clear message);
        // the one after stops the parser.
        files: opts.fileRules.size + 1,
        // busboy reports "parts" on reaching the limit, so allow one more and treat that as too many.
        parts: opts.maxParts + 1,
        fileSize: Math.max(0, ...[...opts.fileRules.values()].map((r) => r.maxBytes)) + 1,
        headerPairs: 20,
      },
    });
  } catch {
    return Promise.reject(badForm('The multipart/form-data header has no boundary.'));
  }

  return new Promise<ReceivedForm>((resolve, reject) => {
    const fields = new Map<string, string>();
    const repeated = new Set<string>();
    let textBytes = 0;
    const total = { bytes: 0, max: opts.maxTotalFileBytes };
    const fileFields = new Set<string>();
    let inspector: FileInspector | null = null;
    /** Every file part's write, settled with the file kept (or null for "no file chosen"). */
    const pendingWrites: Promise<[string, ReceivedFile | null]>[] = [];
    let settled = false;

    const detach = () => {
      req.off('aborted', onAbort);
      req.off('error', onAbort);
      req.off('close', onClose);
    };

    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      detach();
      req.unpipe(bb);
      inspector?.destroy(err);
      bb.destroy();
      if (!(err instanceof ClientAborted)) discardUnreadBody(req);
      // Reject only once every partial (or complete) file is gone.
      Promise.all(
        pendingWrites.map((write) =>
          write
            .catch(() => null)
            .then((done) => (done?.[1] ? storage.remove(done[1].key) : undefined))
            .catch(() => undefined),
        ),
      ).then(() => reject(err));
    };

    const onAbort = () => fail(new ClientAborted());
    const onClose = () => {
      if (!req.complete) fail(new ClientAborted());
    };
    req.on('aborted', onAbort);
    req.on('error', onAbort);
    req.on('close', onClose);

    bb.on('field', (name, value, info) => {
      if (settled) return;
      if (info.valueTruncated) return fail(refuse(name.slice(0, 100), `Ensure this field has no more than ${opts.maxFieldBytes} bytes.`));
      textBytes += Buffer.byteLength(value);
      if (textBytes > opts.maxTextBytes) return fail(badForm('The form is too large.'));
      if (fields.has(name)) repeated.add(name);
      else fields.set(name, value);
    });

    bb.on('file', (name, stream, info) => {
      // busboy destroys an unfinished file stream with an error when we stop it; that is expected.
      stream.on('error', () => undefined);
      if (settled) return void stream.resume();
      const rule = opts.fileRules.get(name);
      if (!rule) {
        stream.resume();
        return fail(badForm(unexpectedFileMessage(opts.fileRules)));
      }
      if (fileFields.has(name)) {
        stream.resume();
        return fail(refuse(name, `Only one ${name} file can be uploaded.`));
      }
      fileFields.add(name);
      const key = storage.newKey();
      // A browser sends an empty part with an empty name when no file was chosen.
      const current = new FileInspector(name, rule, !info.filename, total);
      inspector = current;
      stream.on('error', (err) => current.destroy(err));
      // The inspector's own errors (too large, wrong type) reach us through storage.write's rejection,
      // even when they happen before storage has attached its listeners.
      current.on('error', () => undefined);
      stream.pipe(current);
      const write = storage.write(key, current).then(
        async (): Promise<[string, ReceivedFile | null]> => {
          if (!current.head) {
            await storage.remove(key);
            return [name, null];
          }
          const file = {
            key,
            clientName: info.filename ?? '',
            clientType: info.mimeType,
            size: current.bytesSeen,
            sha256: current.digest(),
            head: current.head,
            tail: current.tail(),
          };
          return [name, file];
        },
        (err: Error) => {
          // storage.write has removed the partial file; a refusal from the inspector keeps its message.
          fail(err);
          throw err;
        },
      );
      pendingWrites.push(write);
    });

    bb.on('filesLimit', () => fail(tooManyFiles(opts.fileRules)));
    bb.on('fieldsLimit', () => fail(badForm('The form has too many fields.')));
    bb.on('partsLimit', () => fail(badForm('The form has too many parts.')));
    bb.on('error', () => fail(badForm('The form data is malformed or incomplete.')));
    bb.on('finish', () => {
      Promise.all(pendingWrites).then(
        (written) => {
          if (settled) return;
          settled = true;
          detach();
          const files = new Map<string, ReceivedFile>();
          for (const [name, file] of written) if (file) files.set(name, file);
          resolve({ fields, repeated, files });
        },
        () => undefined,
      );
    });

    req.pipe(bb);
  });
}

/**
 * A client's file name as harmless metadata: no path parts, no control or bidi-override
 * characters, no leading dots, at most 200 characters with the extension kept.
 */
export function safeFileName(name: string, fallback = 'file'): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  let clean = base
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  const chars = Array.from(clean); // code points, so no emoji is cut in half
  if (chars.length > 200) {
    const ext = /\.[A-Za-z0-9]{1,10}$/.exec(clean)?.[0] ?? '';
    clean = chars.slice(0, 200 - ext.length).join('') + ext;
  }
  return clean || fallback;
}
