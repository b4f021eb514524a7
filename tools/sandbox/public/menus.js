// @ts-check
/**
 * Popup menus (a message's reactions and more actions): a button that opens a role=menu, one
 * open at a time, driven by the keyboard as well as the mouse.
 */
import { h, menuKeys } from './dom.js';
/** @import { Child } from './dom.js' */

/**
 * A menu entry: its accessible name, what it shows (the name when nothing else), and what it
 * does.
 * @typedef {{ label: string, content?: Child, run: () => void }} MenuEntry
 */

/**
 * A button that opens a menu of `items.entries` (`items.empty` says so when there are none).
 * @param {string} label
 * @param {{ icon: string, entries: MenuEntry[], empty?: string }} items
 * @param {string} key The button's `data-key`, page-unique.
 */
export function popupMenu(label, items, key) {
  const id = `menu-${key.replace(/[^a-z0-9]/gi, '-')}`;
  const trigger = h(
    'button',
    {
      type: 'button',
      className: 'icon-button',
      'aria-haspopup': 'menu',
      'aria-expanded': 'false',
      'aria-controls': id,
      'aria-label': label,
      title: label,
      dataset: { key },
    },
    items.icon,
  );
  const menu = h('div', { className: 'menu', role: 'menu', id, 'aria-label': label, hidden: true });
  /** @param {boolean} refocus */
  const close = (refocus) => {
    menu.hidden = true;
    trigger.setAttribute('aria-expanded', 'false');
    if (refocus) trigger.focus();
  };
  for (const item of items.entries) {
    menu.append(
      h(
        'button',
        {
          type: 'button',
          role: 'menuitem',
          tabindex: '-1',
          'aria-label': item.label,
          onclick: () => {
            close(false);
            item.run();
          },
        },
        item.content ?? item.label,
      ),
    );
  }
  if (items.entries.length === 0)
    menu.append(h('p', { className: 'menu-empty' }, items.empty ?? 'Nothing here'));
  menuKeys(menu, close);
  trigger.addEventListener('click', () => {
    const open = menu.hidden;
    closeMenus();
    menu.hidden = !open;
    trigger.setAttribute('aria-expanded', String(open));
    if (open) firstItem(menu)?.focus();
  });
  return h('span', { className: 'menu-anchor' }, trigger, menu);
}

/**
 * A menu's first item.
 * @param {HTMLElement} menu
 * @returns {HTMLElement | null}
 */
export function firstItem(menu) {
  return menu.querySelector('[role="menuitem"]');
}

/** Closes every open menu. */
export function closeMenus() {
  for (const menu of document.querySelectorAll('.menu:not([hidden])')) {
    if (!(menu instanceof HTMLElement)) continue;
    menu.hidden = true;
    const trigger = document.querySelector(`[aria-controls="${menu.id}"]`);
    trigger?.setAttribute('aria-expanded', 'false');
  }
}
