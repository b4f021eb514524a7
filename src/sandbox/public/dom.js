/**
 * Building DOM safely: text only ever goes in as text nodes, attributes are set one by one,
 * and nothing here parses markup, so nothing the app or a person wrote can become HTML.
 */

/**
 * Creates an element. `attrs` sets properties for `on*` handlers and known properties
 * (className, hidden, disabled, value...), attributes otherwise; children may be strings
 * (text), nodes, arrays, or null/undefined/false (skipped).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'className') {
      el.className = value;
    } else if (key === 'dataset') {
      for (const [name, data] of Object.entries(value)) el.dataset[name] = String(data);
    } else if (
      ['hidden', 'disabled', 'checked', 'selected', 'multiple', 'required'].includes(key)
    ) {
      el[key] = Boolean(value);
    } else if (key === 'value') {
      el.value = String(value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/** Appends children (strings become text nodes). */
export function append(parent, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    parent.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
  }
  return parent;
}

/** Replaces a node's children, keeping focus on the element with the same `data-key`. */
export function replaceChildren(parent, children) {
  const active = document.activeElement;
  const key = active && parent.contains(active) ? active.dataset?.key : undefined;
  parent.replaceChildren();
  append(parent, children);
  if (key) {
    const again = parent.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again instanceof HTMLElement) again.focus({ preventScroll: true });
  }
}

let counter = 0;
/** A page-unique id for label/aria wiring. */
export function uid(prefix = 'el') {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** Keyboard navigation of a role=menu: arrows move, Home/End jump, Escape closes. */
export function menuKeys(menu, close) {
  menu.addEventListener('keydown', (event) => {
    const items = [...menu.querySelectorAll('[role="menuitem"]')];
    const index = items.indexOf(document.activeElement);
    const move = (to) => {
      event.preventDefault();
      items[(to + items.length) % items.length]?.focus();
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
