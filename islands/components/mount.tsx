/**
 * Mounts an island: the page rendered <div id="island-NAME"> and its props as JSON in
 * <script type="application/json" id="island-NAME-props"> (src/render/islands.ts).
 */
import { type ComponentType, startTransition } from 'react';
import { createRoot } from 'react-dom/client';

function readProps<P>(name: string): P {
  const el = document.getElementById(`island-${name}-props`);
  return (el ? JSON.parse(el.textContent || '{}') : {}) as P;
}

/**
 * `yielding`: the first render is a transition, which React renders in slices that give the main
 * thread back every few milliseconds, for an island whose first render is long (the board's
 * columns of cards): a tap or a key is answered meanwhile instead of after one long task.
 */
export function mountIsland<P extends object>(name: string, Component: ComponentType<P>, options: { yielding?: boolean } = {}): void {
  const root = document.getElementById(`island-${name}`);
  if (!root) return;
  const props = readProps<P>(name);
  // The server-rendered fallback stays until React's first commit replaces it: clearing it first
  // would leave the root empty for a frame, and the page below would jump up and back down.
  const reactRoot = createRoot(root);
  const render = () => reactRoot.render(<Component {...props} />);
  if (options.yielding) startTransition(render);
  else render();
}
