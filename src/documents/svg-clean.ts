/**
 * An allow-list sanitiser for SVG logos (issue 35): only drawing elements and presentation
 * attributes are kept. No scripts, no event handlers, no styles (a `<style>` or `style=""` can
 * load URLs), no links or external references: a reference (`href`, `url(...)`) is kept only
 * when it points inside the file (`#id`). No `<use>` (the "billion laughs" of SVG), no
 * `<foreignObject>`, no entities or doctype. The result is a standalone SVG document.
 */
import sanitizeHtml from 'sanitize-html';

const ELEMENTS = [
  'svg',
  'g',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'title',
  'desc',
  'defs',
  'lineargradient',
  'radialgradient',
  'stop',
  'clippath',
  'mask',
];

/** Lower-cased for the parser; written back in SVG's spelling. */
const CAMEL: Record<string, string> = {
  lineargradient: 'linearGradient',
  radialgradient: 'radialGradient',
  clippath: 'clipPath',
  viewbox: 'viewBox',
  preserveaspectratio: 'preserveAspectRatio',
  gradientunits: 'gradientUnits',
  gradienttransform: 'gradientTransform',
  clippathunits: 'clipPathUnits',
  maskunits: 'maskUnits',
  maskcontentunits: 'maskContentUnits',
  textlength: 'textLength',
  lengthadjust: 'lengthAdjust',
  spreadmethod: 'spreadMethod',
};

const ATTRIBUTES = [
  'id',
  'class',
  'viewbox',
  'preserveaspectratio',
  'width',
  'height',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'd',
  'points',
  'transform',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'opacity',
  'clip-path',
  'clip-rule',
  'mask',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientunits',
  'gradienttransform',
  'spreadmethod',
  'clippathunits',
  'maskunits',
  'maskcontentunits',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'textlength',
  'lengthadjust',
  'dx',
  'dy',
  'role',
  'aria-label',
  'aria-hidden',
  'visibility',
  'display',
];

/** A reference inside the file only: `url(#id)` in paint and clip values. */
const URL_VALUE = /url\s*\(/i;
const LOCAL_URL = /^\s*url\(\s*#[\w.-]+\s*\)\s*$/i;

/** Values a browser could read as a script or a fetch, whatever the attribute. */
const UNSAFE_VALUE = /javascript:|data:|expression\s*\(|@import|<|>/i;

/** Children of these are dropped with them (their text is not a drawing). */
const DROPPED_WITH_CONTENT = ['script', 'style', 'foreignobject', 'iframe', 'noscript', 'template', 'use', 'image', 'a', 'object', 'embed'];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ELEMENTS,
  allowedAttributes: { '*': ATTRIBUTES },
  allowedSchemes: [],
  allowProtocolRelative: false,
  // An element not on the list goes with everything inside it (a namespaced <svg:script> too).
  disallowedTagsMode: 'completelyDiscard',
  nonTextTags: DROPPED_WITH_CONTENT,
  parser: { xmlMode: true, lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true },
  // Every element is written with its closing tag (`<rect></rect>`): valid XML, nothing left open.
  selfClosing: [],
  transformTags: {
    '*': (tagName, attribs) => {
      const kept: Record<string, string> = {};
      for (const [name, value] of Object.entries(attribs)) {
        if (UNSAFE_VALUE.test(value)) continue;
        if (URL_VALUE.test(value) && !LOCAL_URL.test(value)) continue;
        kept[CAMEL[name] ?? name] = value;
      }
      if (tagName === 'svg') kept.xmlns = 'http://www.w3.org/2000/svg';
      return { tagName: CAMEL[tagName] ?? tagName, attribs: kept };
    },
  },
};

// sanitize-html checks attribute names after transformTags: the camel-cased names are allowed too.
(OPTIONS.allowedAttributes as Record<string, string[]>)['*'].push(...Object.values(CAMEL), 'xmlns');
OPTIONS.allowedTags = [...ELEMENTS, ...Object.values(CAMEL)];

/** Whether text is an SVG document: its root element (after the declaration, comments and a doctype) is `svg`. */
export function looksLikeSvg(text: string): boolean {
  const root = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)*<([^\s/>]+)/i.exec(text.replace(/^\ufeff/, ''));
  return (root?.[1].toLowerCase().split(':').pop() ?? '') === 'svg';
}

/** The SVG with only allow-listed elements and attributes; null when nothing of an `<svg>` root is left. */
export function cleanSvg(text: string): string | null {
  // The doctype (and any entity it declares) goes first: entities are never expanded.
  const body = text.replace(/^\ufeff/, '').replace(/<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>/gi, '');
  const out = sanitizeHtml(body, OPTIONS).trim();
  if (!/^<svg[\s>]/.test(out) || !out.endsWith('</svg>')) return null;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${out}\n`;
}
