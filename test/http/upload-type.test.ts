/**
 * Upload types judged from the bytes (src/http/upload-type.ts): the detected type must be one the
 * field allows, whatever the name says; undetectable bytes pass only as UTF-8 text without NUL
 * under a text extension; executables never pass.
 */
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { judgeUpload } from '../../src/http/upload-type.js';
import { normaliseExtension } from '../../src/shared/download-name.js';
import { docBytes, exeBytes, pdfBytes, zipBytes } from '../fixtures/resumes.js';

/** A DOCX as Word writes it: [Content_Types].xml names the main document part's type. */
const DOCX = zipBytes({
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  'word/document.xml': '<w:document/>',
});

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(8192)]);
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a46494600', 'hex'), Buffer.alloc(8192)]);
const ELF = Buffer.concat([Buffer.from('7f454c46020101', 'hex'), Buffer.alloc(8192)]);

const judge = (name: string, bytes: Buffer, allowed: string[] = []) => judgeUpload(name, allowed, async () => new PassThrough().end(bytes));

describe('upload types from the bytes', () => {
  it('takes a detected type the field allows, with its own extension and type', async () => {
    expect(await judge('me.png', PNG, ['png', 'jpg'])).to.deep.equal({ ext: 'png', mime: 'image/png' });
    expect(await judge('photo.JPEG', JPEG, ['.JPEG'])).to.deep.equal({ ext: 'jpeg', mime: 'image/jpeg' });
    expect(await judge('photo.gif', JPEG, ['jpg'])).to.deep.equal({ ext: 'jpg', mime: 'image/jpeg' });
    expect(await judge('cv.pdf', pdfBytes(3000), ['pdf'])).to.deep.equal({ ext: 'pdf', mime: 'application/pdf' });
    expect(await judge('cv.docx', DOCX, ['docx'])).to.include({ ext: 'docx' });
    expect(await judge('old.doc', docBytes(), ['doc'])).to.include({ ext: 'doc' });
    expect(await judge('sheet.xls', docBytes(), ['xls', 'doc'])).to.include({ ext: 'xls' });
    // No list: any type but executables.
    expect(await judge('anything.bin', PNG)).to.deep.equal({ ext: 'png', mime: 'image/png' });
  });

  it('refuses a type the field does not list, whatever the name says', async () => {
    expect(await judge('me.jpg', PNG, ['jpg'])).to.equal(null);
    expect(await judge('cv.pdf', pdfBytes(3000), ['png'])).to.equal(null);
  });

  it('refuses renamed executables, even where the field allows any type', async () => {
    for (const [name, bytes] of [
      ['cv.pdf', exeBytes()],
      ['notes.txt', exeBytes()],
      ['run.png', ELF],
    ] as const) {
      expect(await judge(name, bytes, ['pdf', 'txt', 'png']), name).to.equal(null);
      expect(await judge(name, bytes), name).to.equal(null);
    }
  });

  it('takes undetectable bytes only as UTF-8 text without NUL under a text extension', async () => {
    expect(await judge('notes.txt', Buffer.from('Grüße, 你好\n'))).to.deep.equal({ ext: 'txt', mime: 'text/plain; charset=utf-8' });
    expect(await judge('list.CSV', Buffer.from('a,b\n1,2\n'), ['csv'])).to.deep.equal({ ext: 'csv', mime: 'text/csv; charset=utf-8' });
    expect(await judge('page.html', Buffer.from('<script>alert(1)</script>'))).to.equal(null);
    expect(await judge('image.svg', Buffer.from('<svg onload="alert(1)"/>'), ['svg'])).to.equal(null);
    expect(await judge('notes.txt', Buffer.from('a\u0000b'))).to.equal(null);
    expect(await judge('notes.txt', Buffer.from([0x61, 0xff, 0xfe, 0x62]))).to.equal(null);
    expect(await judge('notes.md', Buffer.from('# Title'), ['txt'])).to.equal(null);
    expect(await judge('x.constructor', Buffer.from('text'))).to.equal(null);
  });

  it('normalises listed extensions: case, spaces and a leading dot', () => {
    expect(['.PDF', ' docx ', '..Png'].map(normaliseExtension)).to.deep.equal(['pdf', 'docx', 'png']);
  });
});
