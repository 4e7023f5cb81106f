/**
 * The sign-in target (`/hrviewlogin?next=`), decided on the URL a browser will resolve: many
 * spellings that look local but normalise to another host, a generated set of combinations, and
 * each answer resolved again against this site as a Location header or location.assign would.
 */
import { expect } from 'chai';
import { DEFAULT_LANDING, landingPath, safeNextPath } from '../../src/shared/next-path.js';
import { OFF_SITE_NEXT, SAME_SITE_NEXT } from '../fixtures/next-paths.js';

const SITE = 'https://careers.example.com';
/** Pages a browser resolves the answer from: the login page with its query, a deep HR page. */
const BASES = [`${SITE}/hrviewlogin?next=x`, `${SITE}/hr/jobs/12/edit`, `${SITE}/`];

/** Resolved as a browser resolves a Location header or location.assign: it must stay on the site. */
function staysOnSite(out: string): boolean {
  return BASES.every((b) => new URL(out, b).origin === SITE) && /^\/(?![/\\])/.test(out);
}

describe('sign-in target (safeNextPath)', () => {
  it('keeps same-site paths, normalised as the browser would', () => {
    const cases: Array<[string, string]> = [
      ...SAME_SITE_NEXT,
      ['/hr/../careers', '/careers'],
      ['/hr/%2F%2Fevil.example', '/hr/%2F%2Fevil.example'],
      ['/hr/..%2f/evil.example', '/hr/..%2f/evil.example'],
      ['/%0a', '/%0a'],
      ['/hr/jobs#a b', '/hr/jobs#a%20b'],
      ['/hr/dashboard ', '/hr/dashboard'],
      ['/\u3000/evil.example', '/%E3%80%80/evil.example'],
      ['/\uff0f/evil.example', '/%EF%BC%8F/evil.example'],
      ['/javascript:alert(1)', '/javascript:alert(1)'],
      ['/hr/jobs?next=//evil.example#//evil.example', '/hr/jobs?next=//evil.example#//evil.example'],
      ['/..', '/'],
    ];
    for (const [raw, want] of cases) {
      expect(safeNextPath(raw), JSON.stringify(raw)).to.equal(want);
      expect(staysOnSite(want), want).to.equal(true);
    }
  });

  it('drops paths that normalise into another host (dot segments, encoded dots, backslashes)', () => {
    for (const raw of OFF_SITE_NEXT) {
      expect(safeNextPath(raw), JSON.stringify(raw)).to.equal(null);
    }
  });

  it('drops anything not written as a path, control characters, over-long values and non-strings', () => {
    for (const raw of [
      undefined,
      null,
      42,
      ['/hr/dashboard'],
      { toString: () => '/hr' },
      '',
      'hr/dashboard',
      'https://evil.example/',
      'http:/evil.example',
      'http:evil.example',
      'javascript:alert(1)',
      'data:text/html,x',
      '\\\\evil.example',
      ' /hr/dashboard',
      '\t/hr',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\n/evil.example',
      '/hr\u0000',
      '/hr\u007f',
      '/' + 'a'.repeat(2048),
    ]) {
      expect(safeNextPath(raw), JSON.stringify(raw)).to.equal(null);
    }
    expect(safeNextPath('/' + 'a'.repeat(2047))).to.equal('/' + 'a'.repeat(2047));
  });

  it('drops the login page itself and the API in any spelling', () => {
    for (const raw of [
      '/hrviewlogin',
      '/HRVIEWLOGIN',
      '/hrviewlogin/',
      '/hrviewlogin?next=/hr',
      '/hr/../hrviewlogin',
      '/%68rviewlogin',
      '/hr/%2e%2e/HrViewLogin',
      '/api',
      '/API',
      '/api/',
      '/api/hr/jobs/',
      '/Api/auth/me/',
      '/hr/%2e%2e/api/hr/jobs/',
      '/hr\\..\\api\\hr',
      '/%61pi/hr/jobs/',
    ]) {
      expect(safeNextPath(raw), JSON.stringify(raw)).to.equal(null);
    }
    expect(safeNextPath('/api-docs')).to.equal('/api-docs');
  });

  it('never answers anything that leaves the site, over generated combinations of tricky segments', () => {
    const pieces = ['', '.', '..', '%2e', '%2E%2e', '.%2e', 'evil.example', 'hr', '%2f', '\\', '@evil.example'];
    const seps = ['/', '\\'];
    let kept = 0;
    let checked = 0;
    const walk = (prefix: string, depth: number) => {
      if (depth === 0) return;
      for (const sep of seps) {
        for (const piece of pieces) {
          const raw = `${prefix}${sep}${piece}`;
          const out = safeNextPath(raw);
          checked++;
          if (out !== null) {
            kept++;
            expect(staysOnSite(out), `${JSON.stringify(raw)} -> ${out}`).to.equal(true);
            // The answer is a fixed point: checking it again gives it back.
            expect(safeNextPath(out), out).to.equal(out);
          } else if (raw.startsWith('/')) {
            // Dropped only for a reason: it leaves the site or names an excluded page.
            const url = URL.parse(raw, BASES[0]);
            const offSite = !url || url.origin !== SITE || url.pathname.startsWith('//');
            expect(
              offSite || /^\/(hrviewlogin|api)(\/|$)/i.test(decodeURIComponent(url!.pathname)),
              `${JSON.stringify(raw)} was dropped`,
            ).to.equal(true);
          }
          walk(raw, depth - 1);
        }
      }
    };
    walk('', 4);
    expect(checked).to.be.greaterThan(100_000);
    expect(kept).to.be.greaterThan(1000);
  });

  it('landingPath falls back to the dashboard', () => {
    expect(DEFAULT_LANDING).to.equal('/hr/dashboard');
    expect(landingPath('/hr/jobs')).to.equal('/hr/jobs');
    expect(landingPath('/hr/..//evil.example')).to.equal('/hr/dashboard');
    expect(landingPath(undefined)).to.equal('/hr/dashboard');
  });
});
