// @ts-check
/**
 * A message as Slack shows it, in a conversation or a thread: author and time, its blocks or
 * text and attachments (or the form that edits it), reactions, the thread's summary, and the
 * actions on hover (react, reply in thread, more). Ephemeral messages, seen by the visitor
 * only, can be dismissed.
 */
import { blockCtx } from './block-context.js';
import { renderAttachment, renderBlocks } from './block-kit.js';
import { actOrTell } from './connection.js';
import { append, h } from './dom.js';
import { emojiChar, REACTION_CHOICES } from './emoji.js';
import { popupMenu } from './menus.js';
import { renderMrkdwn } from './mrkdwn.js';
import { nameCtx, person } from './names.js';
import { openThread, startEditing } from './navigation.js';
import { currentSnapshot, redraw, state } from './state.js';
import { clockTime } from './time.js';

/** @import { BlockContext } from './block-kit.js' */
/** @import { EphemeralMessage, SlackMessage } from '../../slack-double/index.ts' */
/** @import { ConversationView } from '../simulator-state.ts' */

/**
 * A message's author as shown: a person, or the app.
 * @typedef {{ name: string, isApp: boolean }} Author
 */

/** @param {SlackMessage} message */
function authorOf(message) {
  const app = currentSnapshot().app;
  if (message.bot_id || message.user === app.botUserId) {
    return { name: message.bot_profile?.name ?? app.name, isApp: true };
  }
  return { name: person(message.user)?.realName ?? message.user ?? 'Someone', isApp: false };
}

/** @param {string} ts */
function clock(ts) {
  const date = new Date(Number(ts) * 1000);
  return h('time', { className: 'message-time', datetime: date.toISOString() }, clockTime(date));
}

/**
 * A message's blocks (or text) and attachments; acting on a block sends block_actions for the
 * message.
 * @param {{ ts: string, text?: string, blocks?: unknown[], attachments?: unknown[] }} message
 * @param {ConversationView} channel
 */
function messageContent(message, channel) {
  /** @type {BlockContext} */
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

/** @param {Author} author */
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

/**
 * @param {SlackMessage} message
 * @param {ConversationView} channel
 */
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

/**
 * @param {ConversationView} channel
 * @param {SlackMessage} message
 * @param {string} name
 */
function react(channel, message, name) {
  void actOrTell({
    type: 'react',
    as: state.me,
    channel: channel.id,
    ts: message.ts,
    reaction: name,
  });
}

/**
 * @param {SlackMessage} message
 * @param {ConversationView} channel
 * @param {{ inThread: boolean }} where
 */
function messageActions(message, channel, { inThread }) {
  const app = currentSnapshot().app;
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

/**
 * A message in a conversation or a thread.
 * @param {SlackMessage} message
 * @param {ConversationView} channel
 * @param {{ inThread: boolean }} where
 */
export function messageItem(message, channel, { inThread }) {
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

/**
 * The form that edits a message in place (Enter saves, Escape cancels).
 * @param {SlackMessage} message
 * @param {ConversationView} channel
 */
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
      onsubmit: (/** @type {SubmitEvent} */ event) => {
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

/**
 * An ephemeral message: the app's, seen by the visitor only, until they dismiss it.
 * @param {EphemeralMessage} ephemeral
 * @param {ConversationView} channel
 */
export function ephemeralItem(ephemeral, channel) {
  const author = { name: currentSnapshot().app.name, isApp: true };
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
            redraw();
          },
        },
        'Dismiss message',
      ),
    ),
  );
}
