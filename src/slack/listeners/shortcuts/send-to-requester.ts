/**
 * Message shortcut "Send to requester": an agent's own message in a triage thread goes to the
 * ticket as a public message from them (the agents' words there are otherwise internal notes).
 * Refused privately on anyone else's message, outside a triage thread, or for a non-agent. Keyed
 * by the message and its text, so one message is sent once however often the shortcut is
 * used, and an edited one can be sent again.
 */
import { createHash } from 'node:crypto';
import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { describeFailure } from '../../builders/failure-reason-builder.ts';
import { md } from '../../builders/mrkdwn.ts';
import { buildFailureNotice } from '../../builders/notice-builder.ts';
import type { SlackMessage } from '../../builders/ticket-card-builder.ts';
import { buildSendRefusal } from '../../builders/triage-reply-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { type SendToRequesterPayload, sendToRequester } from '../../intents/send-to-requester.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { tellPrivately } from '../../posting/private-notice.ts';
import { messageBody, type PersonMessage } from '../../tickets/message-text.ts';

/** What this file's listeners use of the app's parts. */
type ListenerDeps = Pick<
  SlackDeps,
  'client' | 'logger' | 'people' | 'stores' | 'tasks' | 'triageThreads'
>;

type Args = SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs;

/** The delivery key of one message's text sent to the requester. */
export function sendKey(channel: string, ts: string, body: string): string {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return `send_to_requester:${channel}:${ts}:${hash}`;
}

const ALREADY_SENT: SlackMessage = {
  text: ':incoming_envelope: This message was already sent to the requester.',
  blocks: [
    {
      type: 'section',
      text: md(':incoming_envelope: This message was already sent to the requester.'),
    },
  ],
};

/** Builds the message shortcut's handler. */
export function sendToRequesterShortcut(deps: ListenerDeps) {
  return async ({ shortcut, ack, context }: Args): Promise<void> => {
    await ack();
    const userId = shortcut.user.id;
    const channel = shortcut.channel.id;
    const message = shortcut.message as MessageShortcut['message'] & {
      thread_ts?: string;
      files?: PersonMessage['files'];
    };
    const threadTs = message.thread_ts;
    const tell = (notice: SlackMessage) =>
      tellPrivately(
        deps.client,
        { userId, channel, threadTs, responseUrl: shortcut.response_url },
        notice,
      );
    const body = messageBody({ ...message, user: message.user ?? '', ts: message.ts, channel });
    deps.tasks.run(
      'send-to-requester',
      async () => {
        try {
          if (message.user !== userId) return tell(buildSendRefusal('not_own_message'));
          if (!threadTs || threadTs === message.ts)
            return tell(buildSendRefusal('not_triage_thread'));
          const ticketId = await deps.triageThreads.ticketForTriageThread(
            channel,
            threadTs,
            context.botUserId,
          );
          if (!ticketId) return tell(buildSendRefusal('not_triage_thread'));
          // An agent, or a member of the triage channel's desk (checked once the ticket is known).
          if (!(await deps.people.isAgent(userId, { ticketId, channel })))
            return tell(buildSendRefusal('send_agents_only'));
          if (!body) return tell(buildSendRefusal('empty'));
          const payload: SendToRequesterPayload = {
            ticketId,
            userId,
            body,
            channel,
            threadTs,
            inTriageThread: true,
          };
          const outcome = await enqueueIntent(
            deps,
            sendKey(channel, message.ts, body),
            sendToRequester,
            payload,
          );
          // A failed one was told with its words; used again, it is another try.
          if (!outcome.enqueued && outcome.state === 'failed') {
            await enqueueIntent(
              deps,
              `${sendKey(channel, message.ts, body)}:${shortcut.action_ts}`,
              sendToRequester,
              payload,
            );
            return;
          }
          if (!outcome.enqueued) await tell(ALREADY_SENT);
        } catch (error) {
          // Slack or the store failed before the message was queued: said, with the words.
          deps.logger.warn({ err: error, user: userId }, 'send to requester not queued');
          await tell(buildFailureNotice(describeFailure(error, 'message to the requester'), body));
        }
      },
      { user: userId, channel },
    );
  };
}
