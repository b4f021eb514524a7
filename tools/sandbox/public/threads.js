// @ts-check
/**
 * The thread beside the conversation: its parent message, the replies and the app's ephemeral
 * messages in it, oldest first. A conversation in Slack's AI pane is such a thread of the
 * person's DM with the app, drawn as the pane: its title, the app's status while it works, and
 * the suggested prompts until the person writes.
 */
import { act, actOrTell } from './connection.js';
import { byId, h, replaceChildren } from './dom.js';
import { ephemeralItem, messageItem } from './messages.js';
import { conversation } from './names.js';
import { openThread } from './navigation.js';
import { currentSnapshot, drawn, state } from './state.js';

/** Sets up "Open the AI pane": a new conversation in the pane, opened beside. */
export function setUpPane() {
  byId('pane-open').addEventListener('click', async () => {
    const result = await act({ type: 'openPane', as: state.me });
    if (result.ok && result.pane) openThread(result.pane.channel, result.pane.threadTs);
  });
}

/** Shows "Open the AI pane" when the app's manifest gives it the pane. */
function renderPaneButton() {
  const snapshot = currentSnapshot();
  byId('pane-open').hidden = !snapshot.app.botEvents.includes('assistant_thread_started');
}

/** Draws the open thread, or hides the panel when none is open (or its message is gone). */
export function renderThread() {
  renderPaneButton();
  const panel = byId('thread');
  const thread = state.thread;
  const channel = thread ? conversation(thread.channel) : undefined;
  const parent = channel?.messages.find((m) => m.ts === thread?.ts);
  const open = Boolean(thread && channel && parent);
  panel.hidden = !open;
  byId('layout').classList.toggle('with-thread', open);
  if (!channel || !parent) {
    drawn.thread = '';
    return;
  }
  const snapshot = currentSnapshot();
  const replies = channel.messages.filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts);
  const ephemerals = snapshot.ephemerals.filter(
    (e) =>
      e.channel === channel.id && e.thread_ts === parent.ts && !state.dismissedEphemerals.has(e.ts),
  );
  const pane = snapshot.panes.find((p) => p.channel === channel.id && p.threadTs === parent.ts);
  const key = JSON.stringify([
    state.me,
    parent,
    replies,
    ephemerals,
    snapshot.people,
    state.editing,
    pane,
  ]);
  if (key === drawn.thread) return;
  drawn.thread = key;
  panel.classList.toggle('is-pane', Boolean(pane));
  byId('thread-title').textContent = pane
    ? `✨ ${snapshot.app.name} · ${pane.title ?? 'New chat'}`
    : channel.kind === 'im'
      ? 'Thread'
      : `Thread in ${channel.isPrivate ? '🔒 ' : '#'}${channel.name}`;
  const status = byId('pane-status');
  status.hidden = !pane?.status;
  status.textContent = pane?.status ? `${snapshot.app.name} · ${pane.status}` : '';
  const prompts = byId('pane-prompts');
  const offered = pane && replies.length === 0 ? pane.prompts : [];
  prompts.hidden = offered.length === 0;
  replaceChildren(prompts, [
    ...(pane?.promptsTitle && offered.length > 0
      ? [h('p', { className: 'pane-prompts-title' }, pane.promptsTitle)]
      : []),
    ...offered.map((prompt) =>
      h(
        'button',
        {
          type: 'button',
          className: 'pane-prompt',
          onclick: () =>
            void actOrTell({
              type: 'message',
              as: state.me,
              channel: channel.id,
              text: prompt.message,
              threadTs: parent.ts,
            }),
        },
        prompt.title,
      ),
    ),
  ]);
  const items = [
    ...replies.map((m) => ({ ts: m.ts, node: () => messageItem(m, channel, { inThread: true }) })),
    ...ephemerals.map((e) => ({ ts: e.ts, node: () => ephemeralItem(e, channel) })),
  ].sort((a, b) => Number(a.ts) - Number(b.ts));
  const list = byId('thread-messages');
  const log = list.parentElement ?? list;
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 80;
  replaceChildren(list, [
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
