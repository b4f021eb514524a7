/**
 * Message shortcut "Create ticket": the create modal prefilled from the message, its author,
 * its permalink and the replies already in its thread. On a message of a thread that already is
 * a ticket's, no modal: the person is told privately which ticket the thread is, with the
 * button to file the message as their own ticket (the thread stays with its ticket).
 */

import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { withinOr } from '../../../timeout.ts';
import type { SlackDeps } from '../../deps.ts';
import { openCreateModal } from '../../modals/create-modal.ts';
import { permalinkOf } from '../../posting/slack-posting.ts';
import { ownerOfThread, tellThreadTaken, ticketTitle } from '../../threads/thread-owner.ts';
import { ThreadTicketFinder } from '../../threads/thread-tickets.ts';
import { slackToPlain, titleFromText } from '../../tickets/message-text.ts';

/** What this file's listeners use of the app's parts. */
type ListenerDeps = Pick<
  SlackDeps,
  | 'client'
  | 'deskFields'
  | 'desks'
  | 'healWindow'
  | 'logger'
  | 'people'
  | 'reads'
  | 'serviceDesk'
  | 'settings'
  | 'statuses'
  | 'stores'
  | 'tasks'
>;

/** Replies read into the description; the permalink in it leads to the rest of a long thread. */
const MAX_REPLIES = 20;
const PREFILL_BUDGET_MS = 1_000;

/** Builds the message shortcut's handler. */
export function createFromMessageShortcut(deps: ListenerDeps) {
  const threads = new ThreadTicketFinder({ client: deps.client });
  return async ({
    shortcut,
    ack,
    context,
  }: SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const channel = shortcut.channel.id;
    const message = shortcut.message;
    const ts = message.ts;
    const threadTs = (message as { thread_ts?: string }).thread_ts;
    const appUserId = context.botUserId;
    const parentAuthor = (message as { parent_user_id?: string }).parent_user_id;
    deps.tasks.run(
      'open-create-modal-from-message',
      async () => {
        const text = slackToPlain(message.text ?? '');
        const author = message.user;
        const thread = threadTs ?? ts;
        // The trigger_id dies 3 s after the click: the thread gets a second at most, and the
        // modal opens with whatever arrived by then. A thread whose ticket is not known by then
        // is checked again when the ticket is filed, and kept by its ticket.
        const [owner, permalink, replies, authorPerson] = await Promise.all([
          withinOr(
            PREFILL_BUDGET_MS,
            ownerOfThread(deps, threads, {
              channel,
              threadTs: thread,
              appUserId,
              appWrote:
                appUserId !== undefined && (author === appUserId || parentAuthor === appUserId),
            }),
            undefined,
          ),
          withinOr(PREFILL_BUDGET_MS, permalinkOf(deps.client, channel, ts), undefined),
          withinOr(PREFILL_BUDGET_MS, threadReplies(deps, channel, threadTs ?? ts, ts), []),
          author ? withinOr(PREFILL_BUDGET_MS, deps.people.person(author), undefined) : undefined,
        ]);
        if (owner) {
          await tellThreadTaken(
            deps,
            {
              channel,
              ...(thread !== ts ? { threadTs: thread } : {}),
              responseUrl: shortcut.response_url,
            },
            { ticketId: owner, channel, ts, threadTs: thread, userId: shortcut.user.id },
            await ticketTitle(deps, owner, { userId: shortcut.user.id }),
          );
          deps.logger.info(
            { ticket_id: owner, channel, thread_ts: thread },
            'ticket asked on a ticket’s thread: nothing filed, the person told',
          );
          return;
        }
        const authorName = authorPerson?.name;
        const description = [
          text,
          replies.length > 0 ? `Replies in the thread:\n${replies.join('\n')}` : '',
          `— From Slack${authorName ? `, posted by ${authorName}` : ''}${permalink ? `: ${permalink}` : ''}`,
        ]
          .filter(Boolean)
          .join('\n\n');
        await openCreateModal(deps, {
          triggerId: shortcut.trigger_id,
          userId: shortcut.user.id,
          metadata: {
            channel,
            message: {
              channel,
              ts,
              ...(threadTs ? { threadTs } : {}),
              ...(author ? { author } : {}),
            },
          },
          title: titleFromText(text),
          tellAt: { responseUrl: shortcut.response_url, channel },
          description,
          context: author
            ? `From a message by <@${author}> in <#${channel}>`
            : `From a message in <#${channel}>`,
        });
      },
      { user: shortcut.user.id, channel },
    );
  };
}

async function threadReplies(
  deps: ListenerDeps,
  channel: string,
  threadTs: string,
  ts: string,
): Promise<string[]> {
  try {
    const result = await deps.client.conversations.replies({
      channel,
      ts: threadTs,
      limit: MAX_REPLIES + 1,
    });
    const replies = (result.messages ?? [])
      .filter((m) => m.ts !== ts && m.ts !== threadTs)
      .slice(0, MAX_REPLIES);
    const names = new Map<string, string>();
    for (const m of replies) {
      if (m.user && !names.has(m.user)) {
        names.set(
          m.user,
          (await deps.people.person(m.user).catch(() => undefined))?.name ?? m.user,
        );
      }
    }
    return replies.map(
      (m) => `${m.user ? names.get(m.user) : 'someone'}: ${slackToPlain(m.text ?? '')}`,
    );
  } catch (error) {
    // A thread the app cannot read still leaves the message itself: file what we have.
    deps.logger.warn(
      { err: error, channel, thread_ts: threadTs },
      'thread replies could not be read',
    );
    return [];
  }
}
