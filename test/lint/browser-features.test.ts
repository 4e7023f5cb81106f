/**
 * The browser helper's --disable-features replaces Playwright's own list (Chromium keeps only the
 * last one): after a Playwright upgrade, every feature Playwright turns off must still be in ours.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DISABLED_FEATURES } from '../helpers/browser.js';

const require = createRequire(import.meta.url);

describe('the browser tests’ Chromium switches', () => {
  it('turn off every feature Playwright turns off (its Windows and Edge ones aside)', () => {
    const bundle = fs.readFileSync(path.join(path.dirname(require.resolve('playwright-core/package.json')), 'lib/coreBundle.js'), 'utf8');
    const list = /disabledFeatures = \[([\s\S]*?)\]\.filter/.exec(bundle);
    expect(list, "Playwright's disabledFeatures list").to.not.equal(null);
    const playwrights = [...list![1].replace(/\/\/.*$/gm, '').matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]);
    expect(playwrights).to.include('PaintHolding');
    const ours = DISABLED_FEATURES.replace('--disable-features=', '').split(',');
    expect(playwrights.filter((f) => !/^ms|Win$/.test(f) && !ours.includes(f))).to.deep.equal([]);
  });
});
