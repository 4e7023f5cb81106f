/**
 * The message after an action that changes something and then leaves or reloads the page (job
 * created, post retried, form published or removed): kept in sessionStorage for the next page,
 * where islands/site.ts writes it into the page's own status region (`[data-page-message]`, e.g.
 * Manage Jobs' #jobs-message) or else the HR layout's (#page-message), so screen readers announce
 * it. Actions that stay on their page show their message where they are.
 */
const FLASH_KEY = 'hr-flash';

/** Keeps `text` for the next page of this tab. */
export function flashNext(text: string): void {
  try {
    sessionStorage.setItem(FLASH_KEY, text);
  } catch {
    // storage blocked: the change still shows on the page, without its message
  }
}

/** The kept message, once (null when there is none). */
function takeFlash(): string | null {
  try {
    const text = sessionStorage.getItem(FLASH_KEY);
    sessionStorage.removeItem(FLASH_KEY);
    return text;
  } catch {
    return null;
  }
}

/** Writes the kept message into the page's status region a moment after load, so it is heard as a change of the region. */
export function showFlash(): void {
  const region = document.querySelector<HTMLElement>('[data-page-message]') ?? document.getElementById('page-message');
  if (!region) return;
  const text = takeFlash();
  if (!text) return;
  setTimeout(() => {
    const message = document.createElement('p');
    message.className = 'alert alert-success';
    message.textContent = text;
    region.replaceChildren(message);
  }, 100);
}
