/**
 * Island mount helper (DESIGN.md convention 6): the page renders the root element and its props
 * as JSON in a <script type="application/json"> beside it; islands/<name>.tsx hydrates it.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function islandMarkup(name: string, props: unknown, fallbackHtml = ''): string {
  const id = `island-${name}`;
  return (
    `<div id="${id}" data-island="${name}">${fallbackHtml}</div>` +
    `<script type="application/json" id="${id}-props">${safeJson(props)}</script>`
  );
}
