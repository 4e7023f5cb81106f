/**
 * Inside the framed job list (/embed/jobs): tells the page that framed it how tall the list is,
 * whenever that changes, so /embed.js can size the frame. The message goes only to the origins in
 * EMBED_ORIGINS (the page's props): a page elsewhere that framed the list hears nothing.
 */
import './embed-frame.css';

const props = JSON.parse(document.getElementById('island-embed-frame-props')?.textContent ?? '{}') as { origins?: string[] };

let last = -1;
function report(): void {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === last || window.parent === window) return;
  last = height;
  for (const origin of props.origins ?? []) window.parent.postMessage({ type: 'careers:embed-height', height }, origin);
}

new ResizeObserver(report).observe(document.documentElement);
window.addEventListener('load', report);
report();
