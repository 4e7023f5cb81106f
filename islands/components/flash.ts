/**
 * The message after an action that changes something and then leaves or reloads the page (job
 * created, post retried, form published or removed): kept in sessionStorage for the next page,
 * where islands/site.ts writes it into the HR layout's status region (#page-message), so screen
 * readers announce it. Actions that stay on their page show their message where they are.
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

/** Writes the kept message into `region` a moment after load, so it is heard as a change of the region. */
export function showFlash(region: HTMLElement | null): void {
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
