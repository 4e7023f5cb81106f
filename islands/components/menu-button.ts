/**
 * Server-rendered menu buttons an island takes over (the ARIA menu button pattern): a
 * `button[data-menu-button]` (rendered hidden, `aria-controls` naming its `ul[role=menu]` of
 * `[role=menuitem]` links and buttons). Enter, Space or ↓ open the menu on its first item, ↑ on
 * its last; in the menu ↑ ↓ Home End move, Escape closes it and returns to the button, Tab closes
 * it and moves on; a click elsewhere, a scroll or a resize closes it. Choosing an item closes the
 * menu. The open menu is placed in the viewport under its button (above it when there is no room
 * below), so no scrolling table clips it. Returns the clean-up.
 */
export function wireMenuButtons(root: ParentNode = document): () => void {
  const offs: (() => void)[] = [];
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-menu-button]')) {
    const menu = document.getElementById(button.getAttribute('aria-controls') ?? '');
    if (!menu) continue;
    const items = () => [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')].filter((el) => !el.hidden);
    const isOpen = () => button.getAttribute('aria-expanded') === 'true';
    const place = () => {
      const r = button.getBoundingClientRect();
      menu.style.position = 'fixed';
      menu.style.right = `${Math.max(4, document.documentElement.clientWidth - r.right)}px`;
      menu.style.left = 'auto';
      const below = r.bottom + 4 + menu.offsetHeight <= window.innerHeight;
      menu.style.top = below ? `${r.bottom + 4}px` : `${Math.max(4, r.top - 4 - menu.offsetHeight)}px`;
    };
    const open = (focus: 'first' | 'last') => {
      button.setAttribute('aria-expanded', 'true');
      menu.hidden = false;
      place();
      const list = items();
      (focus === 'first' ? list[0] : list[list.length - 1])?.focus();
    };
    const close = (refocus: boolean) => {
      if (!isOpen()) return;
      button.setAttribute('aria-expanded', 'false');
      menu.hidden = true;
      if (refocus) button.focus();
    };
    const onButtonClick = () => (isOpen() ? close(true) : open('first'));
    const onButtonKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        open(e.key === 'ArrowDown' ? 'first' : 'last');
      }
    };
    const onMenuKey = (e: KeyboardEvent) => {
      const list = items();
      const at = list.indexOf(document.activeElement as HTMLElement);
      const move = (i: number) => list[(i + list.length) % list.length]?.focus();
      if (e.key === 'ArrowDown') move(at + 1);
      else if (e.key === 'ArrowUp') move(at - 1);
      else if (e.key === 'Home') move(0);
      else if (e.key === 'End') move(list.length - 1);
      else if (e.key === 'Escape') close(true);
      else if (e.key === 'Tab') close(false);
      else return;
      if (e.key !== 'Tab') e.preventDefault();
    };
    // An item chosen: the menu closes; the item's own action (a link, the island's handler) goes on.
    const onMenuClick = (e: MouseEvent) => {
      if ((e.target as HTMLElement).closest('[role="menuitem"]')) close(false);
    };
    const onDocClick = (e: MouseEvent) => {
      if (isOpen() && !menu.contains(e.target as Node) && !button.contains(e.target as Node)) close(false);
    };
    const onMove = () => close(false);
    button.hidden = false;
    button.addEventListener('click', onButtonClick);
    button.addEventListener('keydown', onButtonKey);
    menu.addEventListener('keydown', onMenuKey);
    menu.addEventListener('click', onMenuClick);
    document.addEventListener('click', onDocClick);
    window.addEventListener('resize', onMove);
    window.addEventListener('scroll', onMove, true);
    offs.push(() => {
      window.removeEventListener('resize', onMove);
      window.removeEventListener('scroll', onMove, true);
      button.removeEventListener('click', onButtonClick);
      button.removeEventListener('keydown', onButtonKey);
      menu.removeEventListener('keydown', onMenuKey);
      menu.removeEventListener('click', onMenuClick);
      document.removeEventListener('click', onDocClick);
    });
  }
  return () => {
    for (const off of offs) off();
  };
}

/** The menu button whose menu holds `el`, or null when it is in no menu. */
export function menuButtonOf(el: Element): HTMLButtonElement | null {
  const menu = el.closest('[role="menu"]');
  return menu?.id ? document.querySelector<HTMLButtonElement>(`button[aria-controls="${CSS.escape(menu.id)}"]`) : null;
}
