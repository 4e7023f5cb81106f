/**
 * Issue 28 item 9 over HTTP on both databases: a form file field that takes any type refuses
 * active content with the field's type message, leaving no entry and no file: macro-enabled Office
 * files (by their [Content_Types].xml, by a VBA project or macro sheets inside a .docx/.xlsx/.zip,
 * and by name), and SVG or XHTML saved as XML (by root, by namespace anywhere, through character
 * references or entities, in UTF-16 too) or named .svg/.xhtml. Plain XML, a DOCX and a PDF pass.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { FORM_MESSAGES } from '../../src/forms/schema.js';
import { databaseKinds } from '../helpers/db.js';
import { hrSession } from '../helpers/hr.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hr } from '../applicants/helpers.js';
import { pdfBytes, zipBytes } from '../fixtures/resumes.js';
import { everyFieldForm, submission } from './helpers.js';

const CONTENT_TYPES = (main: string, extra = '') =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/>${extra}<Override PartName="/word/document.xml" ContentType="${main}"/></Types>`;
const DOCX_MAIN = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const DOCM_MAIN = 'application/vnd.ms-word.document.macroEnabled.main+xml';
const XLSM_MAIN = 'application/vnd.ms-excel.sheet.macroEnabled.main+xml';

/** An OOXML package: [Content_Types].xml first, then the parts. */
const ooxml = (main: string, parts: Record<string, string | Buffer>, deflated: string[] = []) =>
  zipBytes({ '[Content_Types].xml': CONTENT_TYPES(main), ...parts }, { deflated: ['[Content_Types].xml', ...deflated] });

const SVG = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>';
const utf16 = (text: string, be = false) => {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return be ? Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]) : le;
};

/** Active files: [what, bytes, name sent]. */
const ACTIVE: [string, Buffer, string][] = [
  [
    'a .docm by its content types',
    ooxml(DOCM_MAIN, { 'word/document.xml': '<w:document/>', 'word/vbaProject.bin': Buffer.alloc(512, 1) }),
    'letter.docm',
  ],
  [
    'a .docm renamed .docx',
    ooxml(DOCM_MAIN, { 'word/document.xml': '<w:document/>', 'word/vbaProject.bin': Buffer.alloc(512, 1) }),
    'letter.docx',
  ],
  [
    'an .xlsm renamed .bin',
    zipBytes({
      '[Content_Types].xml': CONTENT_TYPES(XLSM_MAIN).replace('/word/document.xml', '/xl/workbook.xml'),
      'xl/workbook.xml': '<workbook/>',
    }),
    'data.bin',
  ],
  [
    'a .docx holding a VBA project (content types say docx)',
    ooxml(DOCX_MAIN, { 'word/document.xml': '<w:document/>', 'word/vbaProject.bin': Buffer.alloc(512, 1) }),
    'cv.docx',
  ],
  [
    'a .docx with the VBA project name in other case, compressed',
    ooxml(DOCX_MAIN, { 'word/document.xml': '<w:document/>', 'word/VBAPROJECT.BIN': Buffer.alloc(512, 1) }, ['word/VBAPROJECT.BIN']),
    'cv.docx',
  ],
  [
    'an .xlsx with Excel 4 macro sheets',
    zipBytes({
      '[Content_Types].xml': CONTENT_TYPES('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml').replace(
        '/word/document.xml',
        '/xl/workbook.xml',
      ),
      'xl/workbook.xml': '<workbook/>',
      'xl/macrosheets/sheet1.xml': '<xm:macrosheet/>',
    }),
    'sheet.xlsx',
  ],
  ['a plain ZIP holding vbaProject.bin', zipBytes({ 'readme.txt': 'hi', 'vbaProject.bin': Buffer.alloc(64, 2) }), 'bundle.zip'],
  ['SVG saved as .xml', Buffer.from(SVG), 'image.xml'],
  ['SVG saved as .txt', Buffer.from(SVG), 'notes.txt'],
  [
    'XHTML saved as .xml',
    Buffer.from('<?xml version="1.0"?><!-- hi --><html xmlns="http://www.w3.org/1999/xhtml"><body><script>alert(1)</script></body></html>'),
    'page.xml',
  ],
  [
    'an XHTML script inside any XML root',
    Buffer.from('<?xml version="1.0"?><data><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script></data>'),
    'data.xml',
  ],
  [
    'the namespace spelt with character references',
    Buffer.from('<?xml version="1.0"?><data><x:script xmlns:x="http://www.w3.org/1999/x&#x68;tml">alert(1)</x:script></data>'),
    'data.xml',
  ],
  [
    'the namespace through an entity',
    Buffer.from(
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY ns "http://www.w3.org/1999/xh">]><d><x:script xmlns:x="&ns;tml">alert(1)</x:script></d>',
    ),
    'data.xml',
  ],
  ['an XSLT stylesheet instruction', Buffer.from('<?xml version="1.0"?><?xml-stylesheet type="text/xsl" href="#x"?><data/>'), 'data.xml'],
  ['an svg root without namespace', Buffer.from('<?xml version="1.0"?><SVG onload="alert(1)"/>'), 'data.xml'],
  ['SVG in UTF-16 LE', utf16(SVG), 'image.xml'],
  ['SVG in UTF-16 BE', utf16(SVG, true), 'image.xml'],
  ['a PDF named .svg', pdfBytes(2000), 'logo.svg'],
  ['a text named .xhtml', Buffer.from('hello'), 'page.xhtml'],
  ['a text named .xlsm', Buffer.from('hello'), 'book.XLSM'],
  ['a PDF named .pptm', pdfBytes(2000), 'deck.pptm'],
];

function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

for (const kind of databaseKinds()) {
  describe(`form file fields refuse active content [${kind}]`, function () {
    this.timeout(60_000);
    let s: TestServer;
    let token: string;
    const submit = async (file: { data: Buffer; name: string }) => {
      const res = await fetch(`${s.baseUrl}/api/forms/any-file/submit/`, {
        method: 'POST',
        body: submission({ full_name: 'Asha Rao' }, { upload: file }),
      });
      return { status: res.status, body: await res.json() };
    };

    before(async () => {
      s = await startTestServer(kind, { FORM_RATE_LIMIT: '0' });
      ({ token } = await hrSession(s.ctx.db));
      const base = everyFieldForm({ public_id: 'any-file' });
      const form = {
        ...base,
        sections: [
          {
            title: 'You',
            order: 0,
            fields: [
              {
                name: 'full_name',
                label: 'Full name',
                field_type: 'short_text',
                required: true,
                placeholder: '',
                help_text: '',
                options: [],
                order: 0,
              },
              {
                name: 'upload',
                label: 'Any file',
                field_type: 'file',
                required: true,
                placeholder: '',
                help_text: '',
                options: [],
                order: 1,
                max_file_size: 1024 * 1024,
                allowed_extensions: [],
              },
            ],
          },
        ],
      };
      const created = await hr(s.baseUrl, token, '/api/hr/forms/', { method: 'POST', body: form });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
    });
    after(() => s.close());

    it('refuses each active file with the type message and keeps no entry or file', async () => {
      for (const [what, data, name] of ACTIVE) {
        const r = await submit({ data, name });
        expect(r.status, what).to.equal(400);
        expect(r.body, what).to.deep.equal({ upload: [FORM_MESSAGES.fileType] });
      }
      expect(Number((await s.ctx.db('form_entries').count({ n: '*' }).first())!.n)).to.equal(0);
      expect(Number((await s.ctx.db('stored_files').count({ n: '*' }).first())!.n)).to.equal(0);
      expect(filesUnder(path.join(s.testDb.dataDir, 'uploads'))).to.deep.equal([]);
    });

    it('still takes plain XML, a DOCX, a ZIP and a PDF', async () => {
      const ok: [Buffer, string][] = [
        [
          Buffer.from('<?xml version="1.0"?><catalog xmlns="urn:example:books"><book id="1">SVG &amp; HTML for beginners</book></catalog>'),
          'books.xml',
        ],
        [ooxml(DOCX_MAIN, { 'word/document.xml': '<w:document/>' }), 'cv.docx'],
        [zipBytes({ 'readme.txt': 'the vba project lives elsewhere' }), 'bundle.zip'],
        [pdfBytes(2000), 'cv.pdf'],
      ];
      for (const [data, name] of ok) {
        const r = await submit({ data, name });
        expect(r.status, `${name}: ${JSON.stringify(r.body)}`).to.equal(201);
      }
    });
  });
}
