/**
 * What a POST to a `response_url` does to the workspace, as in Slack: an ephemeral reply by
 * default, a message in the channel for `response_type: 'in_channel'`, or a change to the
 * message the interaction came from (`replace_original`, `delete_original`).
 */
import { isJsonObject } from './block-kit.ts';
import { botAuthor, messageContent } from './web-api/chat-methods.ts';
import type { Workspace } from './workspace.ts';

/** Where a response_url came from: who acted, where, and on which message. */
export interface ResponseUrlContext {
  source: 'slash_command' | 'message_action' | 'block_actions';
  userId: string;
  channelId: string;
  /** The message acted on (message shortcuts and block actions in messages). */
  messageTs?: string;
  /** True when that message is an ephemeral one. */
  isEphemeral?: boolean;
}

/** What the POST did. */
export type ResponseUrlEffect =
  | 'ephemeral'
  | 'in_channel'
  | 'replace_original'
  | 'delete_original'
  | 'refused';

/** The outcome of one POST: the HTTP answer and its effect on the workspace. */
export interface ResponseUrlOutcome {
  status: number;
  answer: Record<string, unknown>;
  effect: ResponseUrlEffect;
  /** The ts of the message or ephemeral message it posted. */
  ts?: string;
}

function refused(status: number, error: string): ResponseUrlOutcome {
  return { status, answer: { ok: false, error }, effect: 'refused' };
}

/** Applies one POST to a response_url. */
export function applyResponseUrlPost(
  workspace: Workspace,
  context: ResponseUrlContext,
  body: unknown,
): ResponseUrlOutcome {
  if (!isJsonObject(body)) return refused(400, 'invalid_payload');
  const { messageTs, channelId } = context;
  if (body.delete_original === true || body.delete_original === 'true') {
    if (messageTs === undefined) return refused(404, 'message_not_found');
    const deleted = context.isEphemeral
      ? workspace.deleteEphemeral(messageTs)
      : workspace.deleteMessage(channelId, messageTs);
    if (!deleted) return refused(404, 'message_not_found');
    return { status: 200, answer: { ok: true }, effect: 'delete_original' };
  }
  const content = messageContent(body);
  if (content.failure) return refused(400, content.failure.error ?? 'invalid_payload');
  if (body.replace_original === true || body.replace_original === 'true') {
    if (messageTs === undefined) return refused(404, 'message_not_found');
    const replaced = context.isEphemeral
      ? workspace.replaceEphemeral(messageTs, content)
      : workspace.updateMessage(channelId, messageTs, {
          text: content.text,
          ...(content.blocks ? { blocks: content.blocks } : {}),
        }) !== undefined;
    if (!replaced) return refused(404, 'message_not_found');
    return { status: 200, answer: { ok: true }, effect: 'replace_original', ts: messageTs };
  }
  const threadTs = typeof body.thread_ts === 'string' ? body.thread_ts : undefined;
  if (body.response_type === 'in_channel') {
    // Slack posts it for the app even where the bot is not a member: no access check here.
    const posted = workspace.postMessage(channelId, {
      ...botAuthor(workspace),
      ...content,
      ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
    });
    return { status: 200, answer: { ok: true }, effect: 'in_channel', ts: posted.ts };
  }
  const ephemeral = workspace.postEphemeral({
    channel: channelId,
    user: context.userId,
    text: content.text,
    ...(content.blocks ? { blocks: content.blocks } : {}),
    ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
    via: 'response_url',
  });
  return { status: 200, answer: { ok: true }, effect: 'ephemeral', ts: ephemeral.ts };
}
