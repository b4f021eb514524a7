// @ts-check
/**
 * The composers (the conversation's and the thread's): Enter sends, Shift+Enter starts a new
 * line, and typing `/` offers the app's commands with their usage hints (Tab completes one).
 * Beside them, the Shortcuts menu of the app's global shortcuts.
 */
import { actOrTell } from './connection.js';
import { byId, h, menuKeys, replaceChildren } from './dom.js';
import { closeMenus, firstItem } from './menus.js';
import { currentConversation } from './names.js';
import { closeThread } from './navigation.js';
import { currentSnapshot, drawn, state } from './state.js';

/**
 * The app's commands that what is typed may be (only the one named once a space is typed).
 * @param {string} text
 */
function matchingCommands(text) {
  if (!text.startsWith('/')) return [];
  const word = text.split(/\s/)[0] ?? '';
  const typedSpace = /\s/.test(text);
  return currentSnapshot().app.commands.filter((c) =>
    typedSpace ? c.command === word : c.command.startsWith(word),
  );
}

function updateHint() {
  const input = byId('composer-input', HTMLTextAreaElement);
  const hint = byId('command-hint');
  const matches = state.snapshot ? matchingCommands(input.value) : [];
  hint.hidden = matches.length === 0;
  replaceChildren(
    hint,
    matches.map((command) =>
      h(
        'button',
        {
          type: 'button',
          className: 'command-option',
          onclick: () => {
            input.value = `${command.command} `;
            updateHint();
            input.focus();
          },
        },
        h('strong', {}, command.command),
        ' ',
        h('span', { className: 'usage' }, command.usageHint),
        h(
          'span',
          { className: 'command-description' },
          `${command.description} · ${currentSnapshot().app.name}`,
        ),
      ),
    ),
  );
}

/**
 * Sends what is in a composer: to the conversation, or to the thread when `threadTs` is given.
 * @param {HTMLTextAreaElement} input
 * @param {string} [threadTs]
 */
async function send(input, threadTs) {
  const text = input.value.trim();
  const channel = currentConversation();
  if (!text || !channel) return;
  input.value = '';
  updateHint();
  await actOrTell({
    type: 'message',
    as: state.me,
    channel: threadTs ? (state.thread?.channel ?? channel.id) : channel.id,
    text,
    ...(threadTs ? { threadTs } : {}),
  });
}

/**
 * @param {HTMLTextAreaElement} input
 * @param {() => void} submit
 */
function composerKeys(input, submit) {
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
}

export function setUpComposers() {
  const input = byId('composer-input', HTMLTextAreaElement);
  input.addEventListener('input', updateHint);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Tab' && !event.shiftKey) {
      const matches = matchingCommands(input.value);
      if (matches.length === 1 && !/\s/.test(input.value)) {
        event.preventDefault();
        input.value = `${matches[0]?.command} `;
        updateHint();
      }
    }
  });
  composerKeys(input, () => void send(input));
  byId('composer').addEventListener('submit', (event) => {
    event.preventDefault();
    void send(input);
  });
  const threadInput = byId('thread-input', HTMLTextAreaElement);
  composerKeys(threadInput, () => void send(threadInput, state.thread?.ts));
  byId('thread-composer').addEventListener('submit', (event) => {
    event.preventDefault();
    void send(threadInput, state.thread?.ts);
  });
  byId('thread-close').addEventListener('click', closeThread);
}

/** Draws the Shortcuts menu's entries: the app's global shortcuts. */
export function renderShortcutsMenu() {
  const menu = byId('shortcuts-menu');
  const app = currentSnapshot().app;
  const key = JSON.stringify(app.globalShortcuts);
  if (key === drawn.shortcuts) return;
  drawn.shortcuts = key;
  replaceChildren(
    menu,
    app.globalShortcuts.length
      ? app.globalShortcuts.map((shortcut) =>
          h(
            'button',
            {
              type: 'button',
              role: 'menuitem',
              tabindex: '-1',
              onclick: () => {
                closeShortcuts(false);
                void actOrTell({
                  type: 'globalShortcut',
                  as: state.me,
                  callbackId: shortcut.callbackId,
                });
              },
            },
            h('span', {}, shortcut.name),
            h('span', { className: 'menu-note' }, app.name),
          ),
        )
      : h('p', { className: 'menu-empty' }, 'No shortcuts'),
  );
}

/** @param {boolean} refocus */
function closeShortcuts(refocus) {
  byId('shortcuts-menu').hidden = true;
  byId('shortcuts-button').setAttribute('aria-expanded', 'false');
  if (refocus) byId('shortcuts-button').focus();
}

export function setUpShortcuts() {
  const button = byId('shortcuts-button');
  const menu = byId('shortcuts-menu');
  button.addEventListener('click', () => {
    const open = menu.hidden;
    closeMenus();
    menu.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) firstItem(menu)?.focus();
  });
  menuKeys(menu, closeShortcuts);
}
