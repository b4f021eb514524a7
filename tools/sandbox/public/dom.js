// @ts-check
/**
 * Building DOM safely: text only ever goes in as text nodes, attributes are set one by one,
 * and nothing here parses markup, so nothing the app or a person wrote can become HTML.
 */

/**
 * What `h` and `append` take as children: text, nodes, lists of them, and nothing (skipped).
 * @typedef {string | number | Node | null | undefined | false | readonly Child[]} Child
 */

/**
 * An element's attributes for `h`: `on*` handlers, `dataset`, known properties, and any other
 * attribute by name. A value of undefined, null or false leaves the attribute out.
 * @typedef {{ [name: string]: unknown, className?: string, dataset?: Record<string, unknown> }} Attrs
 */

/**
 * Creates an element. `attrs` sets properties for `on*` handlers and known properties
 * (className, hidden, disabled, value...), attributes otherwise; children may be strings
 * (text), nodes, arrays, or null/undefined/false (skipped).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {Child[]} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), /** @type {EventListener} */ (value));
    } else if (key === 'className') {
      el.className = String(value);
    } else if (key === 'dataset') {
      for (const [name, data] of Object.entries(/** @type {object} */ (value))) {
        el.dataset[name] = String(data);
      }
    } else if (
      ['hidden', 'disabled', 'checked', 'selected', 'multiple', 'required'].includes(key)
    ) {
      Reflect.set(el, key, Boolean(value));
    } else if (key === 'value') {
      Reflect.set(el, 'value', String(value));
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/**
 * @param {Child} children
 * @returns {children is readonly Child[]}
 */
const isList = (children) => Array.isArray(children);

/**
 * Appends children (strings become text nodes).
 * @template {Element | DocumentFragment} P
 * @param {P} parent
 * @param {Child} children
 * @returns {P}
 */
export function append(parent, children) {
  if (isList(children)) {
    for (const child of children) append(parent, child);
  } else if (children !== undefined && children !== null && children !== false) {
    parent.append(
      typeof children === 'string' || typeof children === 'number' ? String(children) : children,
    );
  }
  return parent;
}

/**
 * The element with a data-key under `root` (page-unique keys keep focus across re-renders).
 * @param {ParentNode} root
 * @param {string} key
 * @returns {HTMLElement | null}
 */
export function byKey(root, key) {
  return root.querySelector(`[data-key="${CSS.escape(key)}"]`);
}

/**
 * The `data-key` of the focused element when it is inside `root`.
 * @param {Node} root
 * @returns {string | undefined}
 */
export function focusedKey(root) {
  const active = document.activeElement;
  return active instanceof HTMLElement && root.contains(active) ? active.dataset.key : undefined;
}

/**
 * Replaces a node's children, keeping focus on the element with the same `data-key`, what was
 * typed in a keyed text box (a message arriving while someone edits theirs must not put the old
 * words back under their cursor), and a menu open under it open (with its focused item): a
 * message that arrives while someone picks from a message's More actions must not close the
 * menu under their pointer.
 * @param {Element} parent
 * @param {Child} children
 */
export function replaceChildren(parent, children) {
  const key = focusedKey(parent);
  const openMenus = [...parent.querySelectorAll('[aria-haspopup="menu"][aria-expanded="true"]')]
    .filter((trigger) => trigger instanceof HTMLElement && trigger.dataset.key)
    .map((trigger) => /** @type {HTMLElement} */ (trigger).dataset.key ?? '');
  const active = document.activeElement;
  const focusedItem =
    active instanceof HTMLElement &&
    active.getAttribute('role') === 'menuitem' &&
    parent.contains(active)
      ? active.getAttribute('aria-label')
      : null;
  const typed = [...parent.querySelectorAll('textarea[data-key]')].map((box) => ({
    key: /** @type {HTMLTextAreaElement} */ (box).dataset.key ?? '',
    value: /** @type {HTMLTextAreaElement} */ (box).value,
  }));
  parent.replaceChildren();
  append(parent, children);
  for (const { key: boxKey, value } of typed) {
    const box = byKey(parent, boxKey);
    if (box instanceof HTMLTextAreaElement) box.value = value;
  }
  for (const menuKey of openMenus) {
    const trigger = byKey(parent, menuKey);
    const menu = trigger && document.getElementById(trigger.getAttribute('aria-controls') ?? '');
    if (!trigger || !menu) continue;
    menu.hidden = false;
    trigger.setAttribute('aria-expanded', 'true');
    const item = [...menu.querySelectorAll('[role="menuitem"]')].find(
      (el) => el.getAttribute('aria-label') === focusedItem,
    );
    if (item instanceof HTMLElement) item.focus({ preventScroll: true });
  }
  if (key) byKey(parent, key)?.focus({ preventScroll: true });
}

/**
 * One of the page's fixed elements (index.html), as the kind of element it is; a missing one
 * is a broken page, so it throws.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {new () => T} [kind]
 * @returns {T}
 */
export function byId(id, kind) {
  const el = document.getElementById(id);
  if (!(el instanceof (kind ?? HTMLElement))) throw new Error(`the page has no element #${id}`);
  return /** @type {T} */ (el);
}

let counter = 0;
/**
 * A page-unique id for label/aria wiring.
 * @param {string} [prefix]
 */
export function uid(prefix = 'el') {
  counter += 1;
  return `${prefix}-${counter}`;
}

/**
 * Keyboard navigation of a role=menu: arrows move, Home/End jump, Escape closes.
 * @param {HTMLElement} menu
 * @param {(refocus: boolean) => void} close
 */
export function menuKeys(menu, close) {
  menu.addEventListener('keydown', (event) => {
    const items = [...menu.querySelectorAll('[role="menuitem"]')];
    const active = document.activeElement;
    const index = active ? items.indexOf(active) : -1;
    /** @param {number} to */
    const move = (to) => {
      event.preventDefault();
      const item = items[(to + items.length) % items.length];
      if (item instanceof HTMLElement) item.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(items.length - 1);
    else if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      close(event.key === 'Escape');
    }
  });
}
