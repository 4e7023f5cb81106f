/** The part of EJS (which ships no types) that src/render/views.ts uses. */
declare module 'ejs' {
  interface TemplateOptions {
    filename?: string;
    _with?: boolean;
    destructuredLocals?: string[];
    compileDebug?: boolean;
  }
  class Template {
    constructor(text: string, options: TemplateOptions);
    /** After compile(): the whole generated function body. */
    source: string;
    compile(): unknown;
  }
  const ejs: {
    Template: typeof Template;
    escapeXML(value: unknown): string;
    resolveInclude(name: string, filename: string, isDir: boolean): string;
  };
  export default ejs;
}
