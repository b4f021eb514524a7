/**
 * The Slack simulator page. It renders a snapshot of the Slack double's workspace for the
 * person the visitor has chosen to be, and sends what they do to the sandbox, which sends the
 * app what Slack would. A server-sent "change" event triggers a fresh snapshot, so the app's
 * answers (cards, thread replies, modals, App Home) appear as soon as it makes them.
 */
import { fieldValues, renderAttachment, renderBlocks, requiredErrors } from './block-kit.js';
import { append, h, menuKeys, replaceChildren } from './dom.js';
import { emojiChar, REACTION_CHOICES } from './emoji.js';
import { plainText, renderMrkdwn } from './mrkdwn.js';
import { renderPlatform } from './platform.js';
import { clockTime } from './time.js';

const $ = (id) => document.getElementById(id);

const params = new URLSearchParams(location.hash.slice(1));
const state = {
  me: params.get('as') ?? '',
  place: params.get('in') ?? '',
  appTab: 'messages',
  thread: null,
  ticket: '',
  snapshot: null,
  noticeFloor: null,
  dismissedNotices: new Set(),
  dismissedEphemerals: new Set(),
  editing: null,
};

// ---- talking to the sandbox -------------------------------------------------------------

let fetching = false;
let fetchAgain = false;

async function refresh() {
  if (fetching) {
    fetchAgain = true;
    return;
  }
  fetching = true;
  try {
    do {
      fetchAgain = false;
      const query = new URLSearchParams();
      if (state.me) query.set('as', state.me);
      if (state.ticket) query.set('ticket', state.ticket);
      const response = await fetch(`/api/state?${query}`);
      if (!response.ok) throw new Error(`the sandbox answered ${response.status}`);
      state.snapshot = await response.json();
      render();
    } while (fetchAgain);
    setConnection('');
  } catch {
    setConnection('The sandbox is not answering. Is it still running?');
  } finally {
    fetching = false;
  }
}

async function act(action) {
  try {
    const response = await fetch('/api/actions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(action),
    });
    const result = await response.json();
    return response.ok ? result : { ok: false, error: result.error ?? `error ${response.status}` };
  } catch {
    return { ok: false, error: 'The sandbox is not answering.' };
  } finally {
    void refresh();
  }
}

/** An action whose failure is only worth a toast. */
async function actOrTell(action) {
  const result = await act(action);
  if (!result.ok) toast(result.error);
  return result;
}

function setConnection(text) {
  $('connection').textContent = text;
}

function connect() {
  const events = new EventSource('/api/events');
  events.addEventListener('change', () => void refresh());
  events.addEventListener('open', () => setConnection(''));
  events.addEventListener('error', () => setConnection('Reconnecting to the sandbox…'));
}

// ---- names ------------------------------------------------------------------------------

function person(id) {
  return state.snapshot?.people.find((p) => p.id === id);
}

function nameCtx() {
  return {
    userName: (id) => person(id)?.realName,
    channelName: (id) => state.snapshot?.conversations.find((c) => c.id === id)?.name,
  };
}

function conversation(id) {
  return state.snapshot?.conversations.find((c) => c.id === id);
}

function dm() {
  return state.snapshot?.conversations.find((c) => c.kind === 'im');
}

function currentConversation() {
  return state.place === 'app' ? dm() : conversation(state.place);
}

function saveLocation() {
  const query = new URLSearchParams({ as: state.me, in: state.place });
  history.replaceState(null, '', `#${query}`);
}

// ---- rendering ----------------------------------------------------------------------------

function render() {
  const snapshot = state.snapshot;
  if (!snapshot) return;
  if (!state.me) state.me = snapshot.me;
  if (!state.place || (state.place !== 'app' && !conversation(state.place))) {
    state.place = snapshot.conversations[0]?.id ?? 'app';
  }
  state.noticeFloor ??= Math.max(0, ...snapshot.notices.map((n) => n.id));
  $('workspace-name').textContent = snapshot.team.name;
  renderIdentity();
  renderSidebar();
  renderConversation();
  renderThread();
  renderModal();
  renderNotices();
  renderShortcutsMenu();
  renderPlatform(snapshot.platform, {
    select: $('ticket-select'),
    detail: $('ticket-detail'),
    replyForm: $('agent-reply'),
    statusForm: $('agent-status'),
    agentSelect: $('agent-select'),
    statusSelect: $('status-select'),
    tenant: $('platform-tenant'),
    push: $('platform-push'),
    pushToggle: $('webhooks-toggle'),
    pushHint: $('webhooks-hint'),
  });
}

let identityKey = '';
function renderIdentity() {
  const select = $('identity');
  const key = JSON.stringify(state.snapshot.identities);
  if (key !== identityKey) {
    identityKey = key;
    select.replaceChildren(
      ...state.snapshot.identities.map((identity) =>
        h(
          'option',
          { value: identity.userId },
          `${identity.realName} (${identity.role === 'agent' ? 'IT agent' : 'employee'})`,
        ),
      ),
    );
  }
  select.value = state.me;
}

function sidebarButton(label, place, current, extra = {}) {
  return h(
    'li',
    {},
    h(
      'button',
      {
        type: 'button',
        className: 'sidebar-item',
        'aria-current': current ? 'page' : undefined,
        dataset: { key: `place:${place}` },
        onclick: () => go(place),
        ...extra,
      },
      label,
    ),
  );
}

function renderSidebar() {
  const channels = state.snapshot.conversations.filter((c) => c.kind === 'channel');
  replaceChildren(
    $('channel-list'),
    channels.map((c) =>
      sidebarButton(
        [h('span', { 'aria-hidden': 'true', className: 'hash' }, '# '), c.name],
        c.id,
        state.place === c.id,
        { 'aria-label': `Channel ${c.name}` },
      ),
    ),
  );
  replaceChildren($('app-list'), [
    sidebarButton(
      [h('span', { className: 'app-dot', 'aria-hidden': 'true' }), state.snapshot.app.name],
      'app',
      state.place === 'app',
      { 'aria-label': `App ${state.snapshot.app.name}` },
    ),
  ]);
}

function go(place) {
  if (place === state.place) return;
  state.place = place;
  state.thread = null;
  if (place === 'app') openAppTab(state.snapshot.app.homeTabEnabled ? 'home' : 'messages');
  saveLocation();
  render();
  $('composer-input').focus();
}

function openAppTab(tab) {
  state.appTab = tab;
  void act({ type: 'openAppHome', as: state.me, tab });
}

function renderTabs() {
  const tabs = $('app-tabs');
  const app = state.snapshot.app;
  const inApp = state.place === 'app';
  tabs.hidden = !inApp;
  if (!inApp) return;
  const available = [...(app.homeTabEnabled ? ['home'] : []), 'messages'];
  if (!available.includes(state.appTab)) state.appTab = 'messages';
  replaceChildren(
    tabs,
    available.map((tab) =>
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: `tab-${tab}`,
          'aria-selected': String(state.appTab === tab),
          'aria-controls': tab === 'home' ? 'home-panel' : 'messages-pane',
          tabindex: state.appTab === tab ? '0' : '-1',
          dataset: { key: `tab:${tab}` },
          onclick: () => {
            if (state.appTab !== tab) openAppTab(tab);
            render();
          },
          onkeydown: (event) => {
            if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
            const next = available[(available.indexOf(tab) + 1) % available.length];
            openAppTab(next);
            render();
            $(`tab-${next}`)?.focus();
          },
        },
        tab === 'home' ? 'Home' : 'Messages',
      ),
    ),
  );
}

let homeKey = '';
function renderHome() {
  const panel = $('home-panel');
  const home = state.snapshot.home;
  const key = JSON.stringify([state.me, home?.id, home?.hash]);
  if (key === homeKey) return;
  homeKey = key;
  panel.setAttribute('aria-labelledby', 'tab-home');
  if (!home) {
    replaceChildren(
      panel,
      h(
        'p',
        { className: 'empty' },
        `${state.snapshot.app.name} has not published a Home for you yet.`,
      ),
    );
    return;
  }
  const fields = new Map();
  const ctx = {
    ...blockCtx(),
    fields,
    keyPrefix: 'home:',
    onAction: ({ actionId, blockId, value }) =>
      actOrTell({
        type: 'blockAction',
        as: state.me,
        viewId: home.id,
        actionId,
        blockId,
        ...(value !== undefined ? { value } : {}),
        viewValues: fieldValues(fields),
      }),
  };
  replaceChildren(panel, renderBlocks(home.blocks, ctx));
}

function blockCtx() {
  return {
    ...nameCtx(),
    people: state.snapshot.people,
    channels: state.snapshot.conversations.filter((c) => c.kind === 'channel'),
    confirm: askConfirm,
  };
}

let conversationKey = '';
function renderConversation() {
  const snapshot = state.snapshot;
  const inApp = state.place === 'app';
  const current = currentConversation();
  const title = inApp ? snapshot.app.name : `#${current?.name ?? ''}`;
  $('conversation-title').textContent = title;
  renderTabs();
  const showHome = inApp && state.appTab === 'home';
  $('home-panel').hidden = !showHome;
  $('messages-pane').hidden = showHome;
  if (showHome) {
    renderHome();
  } else {
    homeKey = '';
  }
  if (inApp) $('messages-pane').setAttribute('role', 'tabpanel');
  else $('messages-pane').removeAttribute('role');
  $('composer-label').textContent = `Message ${title}`;
  $('composer-input').placeholder = `Message ${title}`;
  if (!current) return;
  const ephemerals = snapshot.ephemerals.filter(
    (e) => e.channel === current.id && !e.thread_ts && !state.dismissedEphemerals.has(e.ts),
  );
  const key = JSON.stringify([state.me, current, ephemerals, snapshot.people, state.editing]);
  if (key === conversationKey) return;
  conversationKey = key;
  const topLevel = current.messages.filter(
    (m) => !m.thread_ts || m.thread_ts === m.ts || m.subtype === 'thread_broadcast',
  );
  const items = [
    ...topLevel.map((m) => ({
      ts: m.ts,
      node: () => messageItem(m, current, { inThread: false }),
    })),
    ...ephemerals.map((e) => ({ ts: e.ts, node: () => ephemeralItem(e, current) })),
  ].sort((a, b) => Number(a.ts) - Number(b.ts));
  const log = $('message-log');
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 80;
  replaceChildren(
    $('messages'),
    items.length
      ? items.map((item) => item.node())
      : h(
          'li',
          { className: 'empty' },
          current.kind === 'im' ? 'Send a message to start.' : 'No messages yet.',
        ),
  );
  if (atBottom) log.scrollTop = log.scrollHeight;
}

function authorOf(message) {
  if (message.bot_id || message.user === state.snapshot.app.botUserId) {
    return { name: message.bot_profile?.name ?? state.snapshot.app.name, isApp: true };
  }
  return { name: person(message.user)?.realName ?? message.user ?? 'Someone', isApp: false };
}

function clock(ts) {
  const date = new Date(Number(ts) * 1000);
  return h('time', { className: 'message-time', datetime: date.toISOString() }, clockTime(date));
}

function messageContent(message, channel) {
  const ctx = {
    ...blockCtx(),
    fields: new Map(),
    keyPrefix: `${message.ts}:`,
    onAction: ({ actionId, blockId, value }) =>
      actOrTell({
        type: 'blockAction',
        as: state.me,
        channel: channel.id,
        ts: message.ts,
        actionId,
        blockId,
        ...(value !== undefined ? { value } : {}),
      }),
  };
  const content = h('div', { className: 'message-content' });
  if (message.blocks?.length) append(content, renderBlocks(message.blocks, ctx));
  else
    append(
      content,
      h('div', { className: 'bk-text' }, renderMrkdwn(message.text ?? '', nameCtx())),
    );
  for (const attachment of message.attachments ?? [])
    append(content, renderAttachment(attachment, ctx));
  return content;
}

function avatar(author) {
  const initials = author.name
    .split(/\s+/)
    .map((word) => word[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return h(
    'div',
    { className: `avatar${author.isApp ? ' app' : ''}`, 'aria-hidden': 'true' },
    initials,
  );
}

function popupMenu(label, items, key) {
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
    if (open) menu.querySelector('[role="menuitem"]')?.focus();
  });
  return h('span', { className: 'menu-anchor' }, trigger, menu);
}

function closeMenus() {
  for (const menu of document.querySelectorAll('.menu:not([hidden])')) {
    menu.hidden = true;
    const trigger = document.querySelector(`[aria-controls="${menu.id}"]`);
    trigger?.setAttribute('aria-expanded', 'false');
  }
}

function reactionsRow(message, channel) {
  if (!message.reactions?.length) return null;
  return h(
    'div',
    { className: 'reactions', role: 'group', 'aria-label': 'Reactions' },
    message.reactions.map((reaction) => {
      const mine = reaction.users.includes(state.me);
      const names = reaction.users.map((id) => person(id)?.realName ?? id).join(', ');
      return h(
        'button',
        {
          type: 'button',
          className: `reaction${mine ? ' mine' : ''}`,
          'aria-pressed': String(mine),
          'aria-label': `:${reaction.name}: ${reaction.count} (${names})`,
          title: `${names} reacted with :${reaction.name}:`,
          dataset: { key: `${message.ts}:reaction:${reaction.name}` },
          onclick: () => {
            if (!mine) react(channel, message, reaction.name);
          },
        },
        `${emojiChar(reaction.name) ?? `:${reaction.name}:`} ${reaction.count}`,
      );
    }),
  );
}

function react(channel, message, name) {
  void actOrTell({
    type: 'react',
    as: state.me,
    channel: channel.id,
    ts: message.ts,
    reaction: name,
  });
}

function messageActions(message, channel, { inThread }) {
  const app = state.snapshot.app;
  const reactionMenu = popupMenu(
    'Add reaction',
    {
      icon: '☺︎+',
      entries: REACTION_CHOICES.map((name) => ({
        label: `React with :${name}:`,
        content: `${emojiChar(name)} :${name}:`,
        run: () => react(channel, message, name),
      })),
    },
    `${message.ts}:react`,
  );
  const moreMenu = popupMenu(
    'More actions',
    {
      icon: '⋮',
      empty: 'No shortcuts',
      entries: [
        ...(message.user === state.me && !message.bot_id
          ? [{ label: 'Edit message', run: () => startEditing(message.ts) }]
          : []),
        ...app.messageShortcuts.map((shortcut) => ({
          label: shortcut.name,
          content: [h('span', {}, shortcut.name), h('span', { className: 'menu-note' }, app.name)],
          run: () =>
            void actOrTell({
              type: 'messageShortcut',
              as: state.me,
              channel: channel.id,
              ts: message.ts,
              callbackId: shortcut.callbackId,
            }),
        })),
      ],
    },
    `${message.ts}:more`,
  );
  return h(
    'div',
    { className: 'message-actions', role: 'group', 'aria-label': 'Message actions' },
    reactionMenu,
    inThread
      ? null
      : h(
          'button',
          {
            type: 'button',
            className: 'icon-button',
            'aria-label': 'Reply in thread',
            title: 'Reply in thread',
            dataset: { key: `${message.ts}:reply` },
            onclick: () => openThread(channel.id, message.ts),
          },
          '💬',
        ),
    moreMenu,
  );
}

function messageItem(message, channel, { inThread }) {
  const author = authorOf(message);
  const replies = message.reply_count ?? 0;
  return h(
    'li',
    { className: 'message', dataset: { ts: message.ts } },
    avatar(author),
    h(
      'div',
      { className: 'message-body' },
      h(
        'div',
        { className: 'message-meta' },
        h('strong', { className: 'author' }, author.name),
        author.isApp ? h('span', { className: 'app-badge' }, 'APP') : null,
        ' ',
        clock(message.ts),
        message.edited ? h('span', { className: 'edited' }, ' (edited)') : null,
      ),
      state.editing === message.ts ? editForm(message, channel) : messageContent(message, channel),
      reactionsRow(message, channel),
      !inThread && replies > 0
        ? h(
            'button',
            {
              type: 'button',
              className: 'thread-summary',
              dataset: { key: `${message.ts}:thread` },
              onclick: () => openThread(channel.id, message.ts),
            },
            `${replies} ${replies === 1 ? 'reply' : 'replies'}`,
          )
        : null,
      messageActions(message, channel, { inThread }),
    ),
  );
}

function startEditing(ts) {
  state.editing = ts;
  conversationKey = '';
  threadKey = '';
  render();
  document.querySelector(`[data-key="${CSS.escape(`${ts}:edit`)}"]`)?.focus();
}

function editForm(message, channel) {
  const input = h('textarea', {
    className: 'edit-input',
    rows: 2,
    'aria-label': 'Edit message',
    dataset: { key: `${message.ts}:edit` },
  });
  input.value = message.text ?? '';
  const stop = () => startEditing(null);
  const save = async () => {
    const text = input.value.trim();
    if (text && text !== message.text) {
      await actOrTell({ type: 'edit', as: state.me, channel: channel.id, ts: message.ts, text });
    }
    stop();
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') stop();
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void save();
    }
  });
  return h(
    'form',
    {
      className: 'edit-form',
      onsubmit: (event) => {
        event.preventDefault();
        void save();
      },
    },
    input,
    h(
      'div',
      { className: 'edit-buttons' },
      h('button', { type: 'button', className: 'bk-button', onclick: stop }, 'Cancel'),
      h('button', { type: 'submit', className: 'bk-button primary' }, 'Save'),
    ),
  );
}

function ephemeralItem(ephemeral, channel) {
  const author = { name: state.snapshot.app.name, isApp: true };
  return h(
    'li',
    { className: 'message ephemeral', dataset: { ts: ephemeral.ts } },
    avatar(author),
    h(
      'div',
      { className: 'message-body' },
      h(
        'div',
        { className: 'message-meta' },
        h('strong', { className: 'author' }, author.name),
        h('span', { className: 'app-badge' }, 'APP'),
        ' ',
        clock(ephemeral.ts),
        ' ',
        h('span', { className: 'only-you' }, '👁 Only visible to you'),
      ),
      messageContent(ephemeral, channel),
      h(
        'button',
        {
          type: 'button',
          className: 'link-button',
          dataset: { key: `${ephemeral.ts}:dismiss` },
          onclick: () => {
            state.dismissedEphemerals.add(ephemeral.ts);
            render();
          },
        },
        'Dismiss message',
      ),
    ),
  );
}

// ---- threads -------------------------------------------------------------------------------

function openThread(channelId, ts) {
  state.thread = { channel: channelId, ts };
  const messages = conversation(channelId)?.messages ?? [];
  const ticketId = messages
    .filter((m) => m.ts === ts || m.thread_ts === ts)
    .map((m) => m.metadata?.event_payload?.ticket_id)
    .find((id) => typeof id === 'string');
  // Following a ticket's thread shows that ticket on the platform's side.
  if (ticketId && ticketId !== state.ticket) {
    state.ticket = ticketId;
    void refresh();
  }
  threadKey = '';
  render();
  $('thread-input').focus();
}

let threadKey = '';
function renderThread() {
  const panel = $('thread');
  const thread = state.thread;
  const channel = thread ? conversation(thread.channel) : undefined;
  const parent = channel?.messages.find((m) => m.ts === thread?.ts);
  const open = Boolean(thread && channel && parent);
  panel.hidden = !open;
  $('layout').classList.toggle('with-thread', open);
  if (!open) {
    threadKey = '';
    return;
  }
  const replies = channel.messages.filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts);
  const ephemerals = state.snapshot.ephemerals.filter(
    (e) =>
      e.channel === channel.id && e.thread_ts === parent.ts && !state.dismissedEphemerals.has(e.ts),
  );
  const key = JSON.stringify([
    state.me,
    parent,
    replies,
    ephemerals,
    state.snapshot.people,
    state.editing,
  ]);
  if (key === threadKey) return;
  threadKey = key;
  $('thread-title').textContent = channel.kind === 'im' ? 'Thread' : `Thread in #${channel.name}`;
  const items = [
    ...replies.map((m) => ({ ts: m.ts, node: () => messageItem(m, channel, { inThread: true }) })),
    ...ephemerals.map((e) => ({ ts: e.ts, node: () => ephemeralItem(e, channel) })),
  ].sort((a, b) => Number(a.ts) - Number(b.ts));
  const log = $('thread-messages').parentElement;
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 80;
  replaceChildren($('thread-messages'), [
    messageItem(parent, channel, { inThread: true }),
    h(
      'li',
      { className: 'thread-divider', 'aria-hidden': 'true' },
      `${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}`,
    ),
    ...items.map((item) => item.node()),
  ]);
  if (atBottom) log.scrollTop = log.scrollHeight;
}

// ---- composers -------------------------------------------------------------------------------

function matchingCommands(text) {
  if (!text.startsWith('/')) return [];
  const word = text.split(/\s/)[0];
  const typedSpace = /\s/.test(text);
  return state.snapshot.app.commands.filter((c) =>
    typedSpace ? c.command === word : c.command.startsWith(word),
  );
}

function updateHint() {
  const input = $('composer-input');
  const hint = $('command-hint');
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
          `${command.description} · ${state.snapshot.app.name}`,
        ),
      ),
    ),
  );
}

async function send(input, threadTs) {
  const text = input.value.trim();
  const channel = currentConversation();
  if (!text || !channel) return;
  input.value = '';
  updateHint();
  await actOrTell({
    type: 'message',
    as: state.me,
    channel: threadTs ? state.thread.channel : channel.id,
    text,
    ...(threadTs ? { threadTs } : {}),
  });
}

function composerKeys(input, submit) {
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
}

function setUpComposers() {
  const input = $('composer-input');
  input.addEventListener('input', updateHint);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Tab' && !event.shiftKey) {
      const matches = matchingCommands(input.value);
      if (matches.length === 1 && !/\s/.test(input.value)) {
        event.preventDefault();
        input.value = `${matches[0].command} `;
        updateHint();
      }
    }
  });
  composerKeys(input, () => void send(input));
  $('composer').addEventListener('submit', (event) => {
    event.preventDefault();
    void send(input);
  });
  const threadInput = $('thread-input');
  composerKeys(threadInput, () => void send(threadInput, state.thread?.ts));
  $('thread-composer').addEventListener('submit', (event) => {
    event.preventDefault();
    void send(threadInput, state.thread?.ts);
  });
  $('thread-close').addEventListener('click', () => {
    state.thread = null;
    render();
    $('composer-input').focus();
  });
}

let shortcutsKey = '';
function renderShortcutsMenu() {
  const menu = $('shortcuts-menu');
  const app = state.snapshot.app;
  const key = JSON.stringify(app.globalShortcuts);
  if (key === shortcutsKey) return;
  shortcutsKey = key;
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

function closeShortcuts(refocus) {
  $('shortcuts-menu').hidden = true;
  $('shortcuts-button').setAttribute('aria-expanded', 'false');
  if (refocus) $('shortcuts-button').focus();
}

function setUpShortcuts() {
  const button = $('shortcuts-button');
  const menu = $('shortcuts-menu');
  button.addEventListener('click', () => {
    const open = menu.hidden;
    closeMenus();
    menu.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) menu.querySelector('[role="menuitem"]')?.focus();
  });
  menuKeys(menu, closeShortcuts);
}

// ---- modals -----------------------------------------------------------------------------------

const modal = {
  key: '',
  viewId: '',
  fields: new Map(),
  errors: {},
  message: '',
  busy: false,
};

function renderModal() {
  const dialog = $('modal');
  const stack = state.snapshot.modals;
  const top = stack.at(-1);
  if (!top) {
    modal.key = '';
    modal.viewId = '';
    if (dialog.open) dialog.close();
    return;
  }
  const key = `${state.me}:${top.id}:${top.hash}:${stack.length}`;
  if (key === modal.key && dialog.open) return;
  // A views.update keeps what the person typed in inputs that kept their ids, as Slack does.
  const kept = new Map();
  if (modal.viewId === top.id) {
    for (const [fieldId, field] of modal.fields) kept.set(fieldId, field.read());
  } else {
    modal.errors = {};
    modal.message = '';
  }
  const firstOpen = !dialog.open || modal.viewId !== top.id;
  modal.key = key;
  modal.viewId = top.id;
  drawModal(top, stack, kept);
  if (!dialog.open) dialog.showModal();
  if (firstOpen) {
    const first = dialog.querySelector(
      '.modal-body input, .modal-body textarea, .modal-body select',
    );
    (first ?? dialog.querySelector('.modal-close'))?.focus();
  }
}

function drawModal(view, stack, kept = new Map()) {
  const dialog = $('modal');
  const active = document.activeElement;
  const activeKey = active && dialog.contains(active) ? active.dataset?.key : undefined;
  const fields = new Map();
  modal.fields = fields;
  const ctx = {
    ...blockCtx(),
    fields,
    errors: modal.errors,
    keyPrefix: 'modal:',
    onAction: ({ actionId, blockId, value }) =>
      actOrTell({
        type: 'blockAction',
        as: state.me,
        viewId: view.id,
        actionId,
        blockId,
        ...(value !== undefined ? { value } : {}),
        viewValues: fieldValues(fields),
      }),
  };
  const body = h('div', { className: 'modal-body' }, renderBlocks(view.blocks, ctx));
  for (const [fieldId, value] of kept) {
    const field = fields.get(fieldId);
    if (field && value !== null) field.write(value);
  }
  const title = plainText(view.title) || state.snapshot.app.name;
  const stacked = stack.length > 1;
  const form = h(
    'form',
    { className: 'modal-form', novalidate: true, onsubmit: (event) => submitModal(event, view) },
    h(
      'header',
      { className: 'modal-header' },
      h(
        'span',
        { className: 'modal-app', 'aria-hidden': 'true' },
        state.snapshot.app.name.slice(0, 1),
      ),
      h('h2', { id: 'modal-title' }, title),
      h(
        'button',
        {
          type: 'button',
          className: 'icon-button modal-close',
          'aria-label': 'Close',
          onclick: () => closeView(stack[0].id),
        },
        '✕',
      ),
    ),
    body,
    modal.message ? h('p', { className: 'modal-error', role: 'alert' }, modal.message) : null,
    h(
      'footer',
      { className: 'modal-footer' },
      h(
        'button',
        {
          type: 'button',
          className: 'bk-button',
          onclick: () => closeView(stacked ? view.id : stack[0].id),
        },
        plainText(view.close) || (stacked ? 'Back' : 'Cancel'),
      ),
      view.submit
        ? h(
            'button',
            { type: 'submit', className: 'bk-button primary', disabled: modal.busy },
            modal.busy ? 'Submitting…' : plainText(view.submit),
          )
        : null,
    ),
  );
  dialog.replaceChildren(form);
  if (activeKey) dialog.querySelector(`[data-key="${CSS.escape(activeKey)}"]`)?.focus();
}

function redrawModal() {
  const stack = state.snapshot.modals;
  const view = stack.find((v) => v.id === modal.viewId);
  if (!view) return;
  const kept = new Map();
  for (const [fieldId, field] of modal.fields) kept.set(fieldId, field.read());
  drawModal(view, stack, kept);
}

async function submitModal(event, view) {
  event.preventDefault();
  if (modal.busy) return;
  const missing = requiredErrors(modal.fields);
  if (Object.keys(missing).length > 0) {
    modal.errors = missing;
    modal.message = '';
    redrawModal();
    $('modal').querySelector('[aria-invalid="true"]')?.focus();
    return;
  }
  modal.busy = true;
  modal.errors = {};
  modal.message = '';
  redrawModal();
  const result = await act({
    type: 'submitView',
    as: state.me,
    viewId: view.id,
    values: fieldValues(modal.fields),
  });
  modal.busy = false;
  if (!result.ok) {
    modal.errors = result.errors ?? {};
    modal.message = result.errors && Object.keys(result.errors).length > 0 ? '' : result.error;
    redrawModal();
    const invalid = $('modal').querySelector('[aria-invalid="true"]');
    invalid?.focus();
    return;
  }
  if (result.outcome === 'closed' || result.outcome === 'clear') {
    modal.key = '';
    modal.viewId = '';
    $('modal').close();
    $('composer-input').focus();
    return;
  }
  redrawModal();
}

function closeView(viewId) {
  const stack = state.snapshot.modals;
  if (stack[0]?.id === viewId) {
    modal.key = '';
    modal.viewId = '';
    $('modal').close();
  }
  void actOrTell({ type: 'closeView', as: state.me, viewId });
}

function setUpModal() {
  $('modal').addEventListener('cancel', (event) => {
    // Escape closes the whole stack, telling the app if it asked (view_closed).
    event.preventDefault();
    const root = state.snapshot?.modals[0];
    if (root) closeView(root.id);
  });
}

function askConfirm(confirm) {
  const dialog = $('confirm');
  return new Promise((resolve) => {
    const done = (answer) => {
      dialog.close();
      resolve(answer);
    };
    dialog.replaceChildren(
      h('h2', { id: 'confirm-title' }, plainText(confirm.title) || 'Are you sure?'),
      h('div', { id: 'confirm-text' }, renderMrkdwn(confirm.text?.text ?? '', nameCtx())),
      h(
        'div',
        { className: 'modal-footer' },
        h(
          'button',
          { type: 'button', className: 'bk-button', onclick: () => done(false) },
          plainText(confirm.deny) || 'Cancel',
        ),
        h(
          'button',
          {
            type: 'button',
            className: `bk-button ${confirm.style === 'danger' ? 'danger' : 'primary'}`,
            onclick: () => done(true),
          },
          plainText(confirm.confirm) || 'Yes',
        ),
      ),
    );
    dialog.addEventListener('cancel', () => resolve(false), { once: true });
    dialog.showModal();
  });
}

// ---- notices ------------------------------------------------------------------------------------

const localNotices = [];
let localNoticeId = 0;

function toast(text) {
  localNoticeId += 1;
  localNotices.push({ id: `local-${localNoticeId}`, text });
  renderNotices();
}

function renderNotices() {
  const fromServer = (state.snapshot?.notices ?? []).filter((n) => n.id > (state.noticeFloor ?? 0));
  const shown = [...fromServer, ...localNotices].filter((n) => !state.dismissedNotices.has(n.id));
  replaceChildren(
    $('notices'),
    shown.slice(-4).map((notice) =>
      h(
        'div',
        { className: 'notice', role: 'alert', dataset: { key: `notice:${notice.id}` } },
        h('span', {}, notice.text),
        h(
          'button',
          {
            type: 'button',
            className: 'icon-button',
            'aria-label': 'Dismiss',
            onclick: () => {
              state.dismissedNotices.add(notice.id);
              renderNotices();
            },
          },
          '✕',
        ),
      ),
    ),
  );
}

// ---- the platform's forms -----------------------------------------------------------------------

function setUpPlatform() {
  $('ticket-select').addEventListener('change', (event) => {
    state.ticket = event.target.value;
    void refresh();
  });
  $('agent-reply').addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = $('agent-reply-body');
    const ticket = state.snapshot?.platform.selected?.ticket;
    if (!ticket || !body.value.trim()) return;
    const result = await actOrTell({
      type: 'agentReply',
      ticketId: ticket.id,
      agentEmail: $('agent-select').value,
      body: body.value,
      internal: $('agent-internal').checked,
    });
    if (result.ok) {
      body.value = '';
      $('agent-internal').checked = false;
    }
  });
  $('webhooks-toggle').addEventListener('change', (event) => {
    void actOrTell({ type: 'setWebhooks', enabled: event.target.checked });
  });
  $('agent-status').addEventListener('submit', (event) => {
    event.preventDefault();
    const ticket = state.snapshot?.platform.selected?.ticket;
    if (!ticket) return;
    void actOrTell({
      type: 'setStatus',
      ticketId: ticket.id,
      agentEmail: $('agent-select').value,
      status: $('status-select').value,
    });
  });
}

// ---- start ----------------------------------------------------------------------------------------

function start() {
  document.querySelector('.skip-link')?.addEventListener('click', (event) => {
    event.preventDefault();
    $('composer-input').focus();
  });
  $('identity').addEventListener('change', (event) => {
    state.me = event.target.value;
    state.thread = null;
    modal.key = '';
    conversationKey = '';
    homeKey = '';
    saveLocation();
    void refresh().then(() => {
      if (state.place === 'app') openAppTab(state.appTab);
    });
  });
  document.addEventListener('click', (event) => {
    if (!(event.target instanceof Element) || !event.target.closest('.menu-anchor')) closeMenus();
  });
  setUpComposers();
  setUpShortcuts();
  setUpModal();
  setUpPlatform();
  connect();
  void refresh().then(() => {
    // Arriving on the app (a bookmarked #in=app) opens its tab as a click would.
    if (state.place === 'app' && state.snapshot) {
      openAppTab(state.snapshot.app.homeTabEnabled ? 'home' : 'messages');
    }
  });
}

start();
