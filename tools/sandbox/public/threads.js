// @ts-check
/**
 * The thread beside the conversation: its parent message, the replies and the app's ephemeral
 * messages in it, oldest first.
 */
import { byId, h, replaceChildren } from './dom.js';
import { ephemeralItem, messageItem } from './messages.js';
import { conversation } from './names.js';
import { currentSnapshot, drawn, state } from './state.js';

/** Draws the open thread, or hides the panel when none is open (or its message is gone). */
export function renderThread() {
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
  const key = JSON.stringify([
    state.me,
    parent,
    replies,
    ephemerals,
    snapshot.people,
    state.editing,
  ]);
  if (key === drawn.thread) return;
  drawn.thread = key;
  byId('thread-title').textContent =
    channel.kind === 'im'
      ? 'Thread'
      : `Thread in ${channel.isPrivate ? '🔒 ' : '#'}${channel.name}`;
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
