/**
 * The multipart reader on its own, over real HTTP: files only in the fields named in its rules,
 * each with its own size and type rule, one per field, all within the request's total; on every
 * refusal no file of the request is left in storage, and the answer carries the field's message.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { type FileRule, type MultipartOptions, receiveMultipart } from '../../src/http/multipart.js';
import type { HttpError } from '../../src/http/errors.js';
import { LocalDiskStorage } from '../../src/storage/storage.js';

const anyHead: FileRule = { maxBytes: 1000, tooLargeMessage: 'File too large.', headBytes: 4, checkHead: () => null, tailBytes: () => 0 };
const OPTIONS: MultipartOptions = {
  fileRules: new Map<string, FileRule>([
    [
      'photo',
      {
        ...anyHead,
        maxBytes: 100,
        checkHead: (head) => (head.subarray(0, 4).toString('latin1') === 'IMG!' ? null : 'File type not allowed.'),
      },
    ],
    ['cv', anyHead],
    ['notes', anyHead],
  ]),
  maxTotalFileBytes: 1500,
  maxFields: 5,
  maxFieldBytes: 1000,
  maxTextBytes: 2000,
  maxParts: 10,
  notMultipartMessage: 'Send the form as multipart/form-data.',
};

function filesUnder(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

describe('multipart reader with named file fields', () => {
  let server: http.Server;
  let base: string;
  let root: string;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'careers-multipart-'));
    const storage = new LocalDiskStorage(root);
    server = http.createServer(async (req, res) => {
      try {
        const form = await receiveMultipart(req, storage, OPTIONS);
        const files = Object.fromEntries([...form.files].map(([name, f]) => [name, { size: f.size, name: f.clientName }]));
        for (const f of form.files.values()) await storage.remove(f.key);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ fields: Object.fromEntries(form.fields), files }));
      } catch (err) {
        const e = err as HttpError;
        res.writeHead(e.status ?? 500, { 'Content-Type': 'application/json' }).end(JSON.stringify(e.body ?? { detail: String(err) }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => {
    server.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const send = async (parts: [string, string | Blob, string?][]) => {
    const body = new FormData();
    for (const [name, value, filename] of parts) {
      if (typeof value === 'string') body.append(name, value);
      else body.append(name, value, filename);
    }
    const res = await fetch(base, { method: 'POST', body });
    return { status: res.status, body: await res.json() };
  };
  const blob = (text: string) => new Blob([text]);

  it('takes one file in each named field, with the text fields', async () => {
    const r = await send([
      ['values', '{"a":1}'],
      ['photo', blob('IMG!' + 'x'.repeat(50)), 'me.png'],
      ['cv', blob('y'.repeat(900)), 'cv.txt'],
    ]);
    expect(r).to.deep.equal({
      status: 200,
      body: { fields: { values: '{"a":1}' }, files: { photo: { size: 54, name: 'me.png' }, cv: { size: 900, name: 'cv.txt' } } },
    });
    expect(filesUnder(root)).to.deep.equal([]);
  });

  it("applies each field's own size and type rule, and removes the files already written", async () => {
    const tooLarge = await send([
      ['cv', blob('y'.repeat(500)), 'cv.txt'],
      ['photo', blob('IMG!' + 'x'.repeat(200)), 'big.png'],
    ]);
    expect(tooLarge).to.deep.equal({ status: 400, body: { photo: ['File too large.'] } });
    const wrongType = await send([
      ['cv', blob('y'.repeat(500)), 'cv.txt'],
      ['photo', blob('MZ\x90\x00 not an image'), 'me.png'],
    ]);
    expect(wrongType).to.deep.equal({ status: 400, body: { photo: ['File type not allowed.'] } });
    expect(filesUnder(root)).to.deep.equal([]);
  });

  it('refuses a second file in one field, a file in a field that takes none, and files too large together', async () => {
    const twice = await send([
      ['cv', blob('one'), 'a.txt'],
      ['cv', blob('two'), 'b.txt'],
    ]);
    expect(twice).to.deep.equal({ status: 400, body: { cv: ['Only one cv file can be uploaded.'] } });
    const unknown = await send([
      ['cv', blob('one'), 'a.txt'],
      ['values', blob('{}'), 'values.json'],
    ]);
    expect(unknown).to.deep.equal({
      status: 400,
      body: { detail: 'Files can be uploaded only in the fields "photo", "cv", "notes", one each.' },
    });
    const together = await send([
      ['cv', blob('y'.repeat(900)), 'a.txt'],
      ['notes', blob('z'.repeat(900)), 'b.txt'],
    ]);
    expect(together).to.deep.equal({ status: 400, body: { detail: 'The files are too large together.' } });
    expect(filesUnder(root)).to.deep.equal([]);
  });

  it('treats an empty part without a name as no file chosen', async () => {
    const r = await send([
      ['cv', new Blob([]), ''],
      ['notes', blob('n'), 'n.txt'],
    ]);
    expect(r.status).to.equal(200);
    expect(Object.keys(r.body.files)).to.deep.equal(['notes']);
  });
});
