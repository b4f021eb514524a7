// @ts-check
/**
 * Drawing the page from state: the whole of it (`render`), and the parts that are Slack's
 * frame: who the visitor is, the sidebar, the conversation with its App tabs and App Home.
 * Each part is drawn again only when what it shows changed, so focus and scroll stay put.
 */
import { blockCtx } from './block-context.js';
import { renderBlocks } from './block-kit.js';
import { fieldValues } from './block-kit-fields.js';
import { renderShortcutsMenu } from './composers.js';
import { actOrTell } from './connection.js';
import { byId, h, replaceChildren } from './dom.js';
import { ephemeralItem, messageItem } from './messages.js';
import { renderModal } from './modals.js';
import { conversation, currentConversation } from './names.js';
import { go, openAppTab } from './navigation.js';
import { renderNotices, toast } from './notices.js';
import { renderPlatform } from './platform.js';
import { currentSnapshot, drawn, state } from './state.js';
import { renderThread } from './threads.js';
/** @import { Field } from './block-kit-fields.js' */
/** @import { BlockContext } from './block-kit.js' */
/** @import { Attrs, Child } from './dom.js' */

/** Draws the page from the latest snapshot (nothing before the first). */
export function render() {
  const snapshot = state.snapshot;
  if (!snapshot) return;
  if (!state.me) state.me = snapshot.me;
  if (!state.place || (state.place !== 'app' && !conversation(state.place))) {
    state.place = snapshot.conversations[0]?.id ?? 'app';
  }
  state.noticeFloor ??= Math.max(0, ...snapshot.notices.map((n) => n.id));
  byId('workspace-name').textContent = snapshot.team.name;
  renderWorkspaces();
  renderIdentity();
  renderSidebar();
  renderConversation();
  renderThread();
  renderModal();
  renderNotices();
  renderShortcutsMenu();
  renderPlatform(
    snapshot.platform,
    {
      select: byId('ticket-select', HTMLSelectElement),
      detail: byId('ticket-detail'),
      replyForm: byId('agent-reply'),
      statusForm: byId('agent-status'),
      agentSelect: byId('agent-select', HTMLSelectElement),
      statusSelect: byId('status-select', HTMLSelectElement),
      tenant: byId('platform-tenant'),
      push: byId('platform-push'),
      pushToggle: byId('webhooks-toggle', HTMLInputElement),
      pushHint: byId('webhooks-hint'),
    },
    drawn.platform,
  );
}

/** The Workspace switch: shown when the sandbox is an organization of several. */
function renderWorkspaces() {
  const snapshot = currentSnapshot();
  const select = byId('workspace', HTMLSelectElement);
  const key = JSON.stringify(snapshot.workspaces.map(({ id, name }) => [id, name]));
  if (key !== drawn.workspaces) {
    drawn.workspaces = key;
    select.replaceChildren(
      ...snapshot.workspaces.map((workspace) =>
        h('option', { value: workspace.id }, workspace.name),
      ),
    );
  }
  byId('workspace-switch').hidden = snapshot.workspaces.length < 2;
  select.value = snapshot.team.id;
}

function renderIdentity() {
  const select = byId('identity', HTMLSelectElement);
  const identities = currentSnapshot().identities;
  const key = JSON.stringify(identities);
  if (key !== drawn.identities) {
    drawn.identities = key;
    select.replaceChildren(
      ...identities.map((identity) =>
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

/**
 * @param {Child} label
 * @param {string} place
 * @param {boolean} current
 * @param {Attrs} [extra]
 */
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
  const snapshot = currentSnapshot();
  const channels = snapshot.conversations.filter((c) => c.kind === 'channel');
  replaceChildren(
    byId('channel-list'),
    channels.map((c) =>
      sidebarButton(
        [
          h('span', { 'aria-hidden': 'true', className: 'hash' }, c.isPrivate ? '🔒 ' : '# '),
          c.name,
        ],
        c.id,
        state.place === c.id,
        { 'aria-label': `Channel ${c.name}` },
      ),
    ),
  );
  replaceChildren(byId('app-list'), [
    sidebarButton(
      [h('span', { className: 'app-dot', 'aria-hidden': 'true' }), snapshot.app.name],
      'app',
      state.place === 'app',
      { 'aria-label': `App ${snapshot.app.name}` },
    ),
  ]);
  renderWorkflows();
}

/** The workspace's workflows that run the app's steps, each a button that starts it. */
function renderWorkflows() {
  const { workflows } = currentSnapshot().app;
  byId('workflow-heading').hidden = workflows.length === 0;
  replaceChildren(
    byId('workflow-list'),
    workflows.map((workflow) =>
      h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            className: 'sidebar-item workflow-item',
            title: workflow.description,
            dataset: { key: `workflow:${workflow.id}` },
            onclick: async () => {
              const started = await actOrTell({
                type: 'runWorkflow',
                as: state.me,
                workflow: workflow.id,
              });
              if (started.ok) toast(`Workflow “${workflow.name}” started…`);
            },
          },
          h('span', { className: 'workflow-icon', 'aria-hidden': 'true' }, '⚡'),
          workflow.name,
        ),
      ),
    ),
  );
}

function renderTabs() {
  const tabs = byId('app-tabs');
  const app = currentSnapshot().app;
  const inApp = state.place === 'app';
  tabs.hidden = !inApp;
  if (!inApp) return;
  /** @type {('home' | 'messages')[]} */
  const available = app.homeTabEnabled ? ['home', 'messages'] : ['messages'];
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
          onkeydown: (/** @type {KeyboardEvent} */ event) => {
            if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
            const next = available[(available.indexOf(tab) + 1) % available.length] ?? tab;
            openAppTab(next);
            render();
            document.getElementById(`tab-${next}`)?.focus();
          },
        },
        tab === 'home' ? 'Home' : 'Messages',
      ),
    ),
  );
}

function renderHome() {
  const panel = byId('home-panel');
  const snapshot = currentSnapshot();
  const home = snapshot.home;
  const key = JSON.stringify([state.me, home?.id, home?.hash]);
  if (key === drawn.home) return;
  drawn.home = key;
  panel.setAttribute('aria-labelledby', 'tab-home');
  if (!home) {
    replaceChildren(
      panel,
      h('p', { className: 'empty' }, `${snapshot.app.name} has not published a Home for you yet.`),
    );
    return;
  }
  /** @type {Map<string, Field>} */
  const fields = new Map();
  /** @type {BlockContext} */
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

function renderConversation() {
  const snapshot = currentSnapshot();
  const inApp = state.place === 'app';
  const current = currentConversation();
  const title = inApp
    ? snapshot.app.name
    : `${current?.isPrivate ? '🔒 ' : '#'}${current?.name ?? ''}`;
  byId('conversation-title').textContent = title;
  renderTabs();
  const showHome = inApp && state.appTab === 'home';
  const messagesPane = byId('messages-pane');
  byId('home-panel').hidden = !showHome;
  messagesPane.hidden = showHome;
  if (showHome) {
    renderHome();
  } else {
    drawn.home = '';
  }
  if (inApp) messagesPane.setAttribute('role', 'tabpanel');
  else messagesPane.removeAttribute('role');
  const composer = byId('composer-input', HTMLTextAreaElement);
  byId('composer-label').textContent = `Message ${title}`;
  composer.placeholder = `Message ${title}`;
  if (!current) return;
  const ephemerals = snapshot.ephemerals.filter(
    (e) => e.channel === current.id && !e.thread_ts && !state.dismissedEphemerals.has(e.ts),
  );
  const key = JSON.stringify([state.me, current, ephemerals, snapshot.people, state.editing]);
  if (key === drawn.conversation) return;
  drawn.conversation = key;
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
  const log = byId('message-log');
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 80;
  replaceChildren(
    byId('messages'),
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
