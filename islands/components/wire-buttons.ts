/**
 * Server-rendered buttons an island takes over: each one matching `selector` is shown (they are
 * rendered hidden, useless without the island) and calls `onClick` with itself. Returns the clean-up.
 */
export function wireButtons(selector: string, onClick: (button: HTMLButtonElement) => void): () => void {
  const buttons = [...document.querySelectorAll<HTMLButtonElement>(selector)];
  const handler = (e: Event) => onClick(e.currentTarget as HTMLButtonElement);
  for (const b of buttons) {
    b.hidden = false;
    b.addEventListener('click', handler);
  }
  return () => {
    for (const b of buttons) b.removeEventListener('click', handler);
  };
}
