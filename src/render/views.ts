/**
 * The EJS view engine, set up for speed (issue 19's profile of a page render):
 * - each template is compiled once per set of local names, with those names declared as plain
 *   variables (EJS's `destructuredLocals`) instead of EJS's default `with (locals) {...}` block,
 *   which V8 cannot optimise: a list page renders in about half the time;
 * - `include(path, data)` is ours: a partial's path is resolved once per (file, path) pair
 *   instead of EJS checking the disk (`existsSync`) on every call, and the partial is compiled
 *   for the names it is given, like any template;
 * - locals are not copied for a template or an include without data (views never write to them).
 * Templates keep EJS's syntax and meaning: a name that is not passed is still a ReferenceError,
 * `locals.x` still reads an optional one. Outside `view cache` (development) every render reads
 * and compiles the files again, so edits show at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import ejs from 'ejs';

type Locals = Record<string, unknown>;
type Include = (name: string, data?: Locals) => string;
type Template = (locals: Locals, escapeFn: (value: unknown) => string, include: Include) => string;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** A name the template declares itself (`<% const j = item %>`) must not be declared again. */
const DECLARED = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)/g;

export function viewEngine(cacheTemplates: boolean) {
  const templates = new Map<string, Template>();
  const includePaths = new Map<string, string>();

  /** EJS generates the function's source; it is called with our own `include` (see above). */
  function compile(file: string, names: string[]): Template {
    const key = `${file}\n${names.join(',')}`;
    const cached = templates.get(key);
    if (cached) return cached;
    const source = fs.readFileSync(file, 'utf8');
    const declared = new Set(Array.from(source.matchAll(DECLARED), (m) => m[1]));
    const generated = new ejs.Template(source, {
      filename: file,
      _with: false,
      destructuredLocals: names.filter((n) => IDENTIFIER.test(n) && !declared.has(n) && n !== 'include'),
      compileDebug: false,
    });
    generated.compile();
    const template = new Function('locals, escapeFn, include', `${generated.source}\n//# sourceURL=${file}`) as Template;
    if (cacheTemplates) templates.set(key, template);
    return template;
  }

  function includePath(from: string, name: string): string {
    const key = `${from}\n${name}`;
    let resolved = includePaths.get(key);
    if (resolved === undefined) {
      resolved = ejs.resolveInclude(name, from, false);
      if (cacheTemplates) includePaths.set(key, resolved);
    }
    return resolved;
  }

  function render(file: string, locals: Locals): string {
    const include: Include = (name, data) => render(includePath(file, name), data ? { ...locals, ...data } : locals);
    return compile(file, Object.keys(locals))(locals, ejs.escapeXML, include);
  }

  /** Express's engine signature (`app.engine('ejs', ...)`). */
  return (file: string, options: object, done: (err: Error | null, html?: string) => void): void => {
    let html: string;
    try {
      html = render(path.resolve(file), options as Locals);
    } catch (err) {
      done(err as Error);
      return;
    }
    done(null, html);
  };
}
