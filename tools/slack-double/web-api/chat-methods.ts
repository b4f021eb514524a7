/** `chat.*`: posting, updating and deleting messages, ephemeral messages and permalinks. */
import { isJsonObject } from '../block-kit.ts';
import {
  blocksProblems,
  blockTextLength,
  MAX_MESSAGE_BLOCK_TEXT,
  MAX_MESSAGE_BLOCKS,
  MAX_MESSAGE_TEXT,
} from '../block-kit-validation.ts';
import type { MessageMetadata, NewMessage, SlackMessage, Workspace } from '../workspace.ts';
import {
  type ApiArgs,
  type ApiMethod,
  type ApiResponse,
  boolArg,
  fail,
  jsonArg,
  missingArgument,
  ok,
  stringArg,
} from './args.ts';
import { accessChannel } from './channel-access.ts';

/** Message content as Slack accepts it, or its refusal. */
type Content =
  | { text: string; blocks?: unknown[]; attachments?: unknown[]; failure?: undefined }
  | { failure: ApiResponse };

/**
 * Reads `text`, `blocks` and `attachments` with Slack's checks: something to show is required
 * (`no_text`), text of at most 40,000 characters (`msg_too_long`), at most 50 valid blocks
 * carrying at most 12,000 characters of text together (`msg_blocks_too_long`).
 */
export function messageContent(args: ApiArgs): Content {
  const text = typeof args.text === 'string' ? args.text : undefined;
  const blocksArg = jsonArg(args, 'blocks');
  let blocks: unknown[] | undefined;
  if (blocksArg.present) {
    if (blocksArg.invalid || !Array.isArray(blocksArg.value)) {
      return { failure: fail('invalid_blocks_format') };
    }
    blocks = blocksArg.value;
  }
  const attachmentsArg = jsonArg(args, 'attachments');
  let attachments: unknown[] | undefined;
  if (attachmentsArg.present) {
    if (attachmentsArg.invalid || !Array.isArray(attachmentsArg.value)) {
      return { failure: fail('invalid_attachments') };
    }
    attachments = attachmentsArg.value;
  }
  const hasBlocks = blocks !== undefined && blocks.length > 0;
  const hasAttachments = attachments !== undefined && attachments.length > 0;
  if ((text === undefined || text.trim() === '') && !hasBlocks && !hasAttachments) {
    return { failure: fail('no_text') };
  }
  if (text !== undefined && text.length > MAX_MESSAGE_TEXT) {
    return { failure: fail('msg_too_long') };
  }
  if (blocks !== undefined) {
    const problems = blocksProblems(blocks, '/blocks', MAX_MESSAGE_BLOCKS);
    if (problems.length > 0) return { failure: fail('invalid_blocks', problems) };
    if (blockTextLength(blocks) > MAX_MESSAGE_BLOCK_TEXT) {
      return { failure: fail('msg_blocks_too_long') };
    }
  }
  const content: Content = { text: text ?? '' };
  if (hasBlocks) content.blocks = blocks;
  if (hasAttachments) content.attachments = attachments;
  return content;
}

function metadataArg(args: ApiArgs): { metadata?: MessageMetadata; failure?: ApiResponse } {
  const parsed = jsonArg(args, 'metadata');
  if (!parsed.present) return {};
  if (parsed.invalid || !isJsonObject(parsed.value)) {
    return { failure: fail('invalid_metadata_format') };
  }
  const { event_type, event_payload } = parsed.value;
  if (typeof event_type !== 'string' || event_type === '' || !isJsonObject(event_payload)) {
    return { failure: fail('invalid_metadata_schema') };
  }
  return { metadata: { event_type, event_payload } };
}

/** The fields every message the bot posts carries (author, bot and app ids, bot profile). */
export function botAuthor(workspace: Workspace): NewMessage {
  return {
    text: '',
    user: workspace.botUserId,
    bot_id: workspace.botId,
    app_id: workspace.appId,
    team: workspace.team.id,
    bot_profile: {
      id: workspace.botId,
      app_id: workspace.appId,
      name: workspace.user(workspace.botUserId)?.real_name ?? 'app',
      team_id: workspace.team.id,
      deleted: false,
    },
  };
}

function isBotMessage(workspace: Workspace, message: SlackMessage): boolean {
  return message.bot_id === workspace.botId || message.user === workspace.botUserId;
}

const postMessage: ApiMethod = (workspace, args) => {
  const access = accessChannel(workspace, stringArg(args, 'channel'), 'write');
  if ('failure' in access) return access.failure;
  const content = messageContent(args);
  if (content.failure) return content.failure;
  const { metadata, failure } = metadataArg(args);
  if (failure) return failure;
  const message: NewMessage = { ...botAuthor(workspace), ...content };
  if (metadata) message.metadata = metadata;
  const threadTs = stringArg(args, 'thread_ts');
  if (threadTs !== undefined) {
    message.thread_ts = threadTs;
    if (boolArg(args, 'reply_broadcast')) message.subtype = 'thread_broadcast';
  }
  const stored = workspace.postMessage(access.conversation.id, message);
  return ok({ channel: access.conversation.id, ts: stored.ts, message: stored });
};

const postEphemeral: ApiMethod = (workspace, args) => {
  const access = accessChannel(workspace, stringArg(args, 'channel'), 'write');
  if ('failure' in access) return access.failure;
  const userId = stringArg(args, 'user');
  if (userId === undefined) return missingArgument('user');
  if (!workspace.user(userId)) return fail('user_not_found');
  if (!access.conversation.members.includes(userId)) return fail('user_not_in_channel');
  const content = messageContent(args);
  if (content.failure) return content.failure;
  const threadTs = stringArg(args, 'thread_ts');
  const stored = workspace.postEphemeral({
    channel: access.conversation.id,
    user: userId,
    text: content.text,
    ...(content.blocks ? { blocks: content.blocks } : {}),
    ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
    via: 'chat.postEphemeral',
  });
  return ok({ message_ts: stored.ts });
};

const update: ApiMethod = (workspace, args) => {
  const access = accessChannel(workspace, stringArg(args, 'channel'), 'write');
  if ('failure' in access) return access.failure;
  const ts = stringArg(args, 'ts');
  if (ts === undefined) return missingArgument('ts');
  const channelId = access.conversation.id;
  const existing = workspace.message(channelId, ts);
  if (!existing) return fail('message_not_found');
  if (!isBotMessage(workspace, existing)) return fail('cant_update_message');
  const content = messageContent(args);
  if (content.failure) return content.failure;
  const { metadata, failure } = metadataArg(args);
  if (failure) return failure;
  // Omitted blocks and attachments are kept, as Slack keeps them; text is always replaced.
  const patch: Partial<NewMessage> = { text: content.text };
  if (content.blocks) patch.blocks = content.blocks;
  if (content.attachments) patch.attachments = content.attachments;
  if (metadata) patch.metadata = metadata;
  patch.edited = { user: workspace.botUserId, ts: workspace.nextTs() };
  const updated = workspace.updateMessage(channelId, ts, patch);
  return ok({ channel: channelId, ts, text: updated?.text ?? '', message: updated });
};

const deleteMessage: ApiMethod = (workspace, args) => {
  const access = accessChannel(workspace, stringArg(args, 'channel'), 'write');
  if ('failure' in access) return access.failure;
  const ts = stringArg(args, 'ts');
  if (ts === undefined) return missingArgument('ts');
  const existing = workspace.message(access.conversation.id, ts);
  if (!existing) return fail('message_not_found');
  if (!isBotMessage(workspace, existing)) return fail('cant_delete_message');
  workspace.deleteMessage(access.conversation.id, ts);
  return ok({ channel: access.conversation.id, ts });
};

const getPermalink: ApiMethod = (workspace, args) => {
  const access = accessChannel(workspace, stringArg(args, 'channel'), 'info');
  if ('failure' in access) return access.failure;
  const ts = stringArg(args, 'message_ts');
  if (ts === undefined) return missingArgument('message_ts');
  const permalink = workspace.permalink(access.conversation.id, ts);
  if (permalink === undefined) return fail('message_not_found');
  return ok({ channel: access.conversation.id, permalink });
};

/**
 * `chat.unfurl`: attaches the app's unfurls to a user's message, as Slack does. The message
 * must exist (`cannot_find_message`), `unfurls` must be a JSON map (`missing_unfurls`,
 * `invalid_unfurls_format`) whose every key is a link the message's `link_shared` named
 * (`cannot_unfurl_url`) and whose every value is an attachment with valid blocks
 * (`invalid_unfurls`). A second call on the same message replaces the unfurls of its links,
 * never adds more.
 */
const unfurl: ApiMethod = (workspace, args) => {
  const channelId = stringArg(args, 'channel');
  if (channelId === undefined) return missingArgument('channel');
  const conversation = workspace.conversation(channelId);
  if (!conversation) return fail('cannot_find_channel');
  const ts = stringArg(args, 'ts');
  if (ts === undefined) return missingArgument('ts');
  const message = workspace.message(conversation.id, ts);
  if (!message) return fail('cannot_find_message');
  const parsed = jsonArg(args, 'unfurls');
  if (!parsed.present) return fail('missing_unfurls');
  if (parsed.invalid || !isJsonObject(parsed.value)) return fail('invalid_unfurls_format');
  const shared = workspace.sharedLinks(conversation.id, ts);
  const attachments = (message.attachments ?? []).filter(isJsonObject);
  for (const [url, value] of Object.entries(parsed.value)) {
    if (!shared.has(url))
      return fail('cannot_unfurl_url', [`${url} was not shared in that message`]);
    if (!isJsonObject(value)) return fail('invalid_unfurls', [`/unfurls/${url} must be an object`]);
    const blocks = value.blocks;
    if (blocks !== undefined) {
      if (!Array.isArray(blocks))
        return fail('invalid_unfurls', [`/unfurls/${url}/blocks must be an array`]);
      const problems = blocksProblems(blocks, `/unfurls/${url}/blocks`, MAX_MESSAGE_BLOCKS);
      if (problems.length > 0) return fail('invalid_unfurls', problems);
    } else if (typeof value.text !== 'string' && typeof value.title !== 'string') {
      return fail('invalid_unfurls', [`/unfurls/${url} has no blocks, text or title`]);
    }
    const attachment = {
      ...value,
      id: attachments.length + 1,
      app_unfurl_url: url,
      from_url: url,
      is_app_unfurl: true,
      app_id: workspace.appId,
    };
    const index = attachments.findIndex((a) => a.app_unfurl_url === url);
    if (index >= 0) attachments[index] = { ...attachment, id: attachments[index]?.id ?? 1 };
    else attachments.push(attachment);
  }
  workspace.updateMessage(conversation.id, ts, { attachments });
  return ok();
};

/** The `chat.*` methods the double implements. */
export const chatMethods: Record<string, ApiMethod> = {
  'chat.postMessage': postMessage,
  'chat.postEphemeral': postEphemeral,
  'chat.update': update,
  'chat.delete': deleteMessage,
  'chat.getPermalink': getPermalink,
  'chat.unfurl': unfurl,
};
