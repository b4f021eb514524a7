/**
 * What the bot may do in a conversation, answered as Slack answers it: a private conversation
 * the bot is not in does not exist (`channel_not_found`); a public channel it was not invited
 * to can be looked at but not written to or read (`not_in_channel`).
 */
import type { Conversation, Workspace } from '../workspace.ts';
import { type ApiResponse, fail, missingArgument } from './args.ts';

/** What the call wants to do: write (post, react), read history, or only look the channel up. */
export type ChannelNeed = 'write' | 'read' | 'info';

/** The conversation the bot may use, or Slack's refusal. */
export type ChannelAccess = { conversation: Conversation } | { failure: ApiResponse };

/**
 * Resolves the `channel` argument. For writes, a user id (`U...`) means the bot's DM with that
 * user, as `chat.postMessage` allows.
 */
export function accessChannel(
  workspace: Workspace,
  channelId: string | undefined,
  need: ChannelNeed,
): ChannelAccess {
  if (channelId === undefined) return { failure: missingArgument('channel') };
  let id = channelId;
  if (need === 'write' && /^[UW]/.test(id) && workspace.user(id)) id = workspace.openIm(id);
  const conversation = workspace.conversation(id);
  if (!conversation) return { failure: fail('channel_not_found') };
  const isMember = conversation.members.includes(workspace.botUserId);
  if (!isMember && (conversation.isPrivate || conversation.isIm || conversation.isMpim)) {
    return { failure: fail('channel_not_found') };
  }
  if (!isMember && need !== 'info') return { failure: fail('not_in_channel') };
  if (conversation.isArchived && need === 'write') return { failure: fail('is_archived') };
  return { conversation };
}

/** The `channel_type` Slack puts on message events: channel, group (private), im or mpim. */
export function channelType(conversation: Conversation): 'channel' | 'group' | 'im' | 'mpim' {
  if (conversation.isIm) return 'im';
  if (conversation.isMpim) return 'mpim';
  return conversation.isPrivate ? 'group' : 'channel';
}

/** The conversation object `conversations.info` and `conversations.open` return. */
export function conversationObject(
  workspace: Workspace,
  conversation: Conversation,
  withMemberCount = false,
): Record<string, unknown> {
  if (conversation.isIm) {
    return {
      id: conversation.id,
      created: conversation.created,
      is_im: true,
      is_org_shared: false,
      user: conversation.imUser,
      is_user_deleted: false,
      priority: 0,
    };
  }
  const object: Record<string, unknown> = {
    id: conversation.id,
    name: conversation.name,
    is_channel: !conversation.isPrivate,
    is_group: false,
    is_im: false,
    is_mpim: conversation.isMpim,
    is_private: conversation.isPrivate,
    created: conversation.created,
    is_archived: conversation.isArchived,
    is_general: conversation.name === 'general',
    is_shared: false,
    is_org_shared: false,
    is_ext_shared: false,
    is_member: conversation.members.includes(workspace.botUserId),
    name_normalized: conversation.name,
    creator: conversation.creator,
    context_team_id: workspace.team.id,
    topic: { value: '', creator: '', last_set: 0 },
    purpose: { value: '', creator: '', last_set: 0 },
  };
  if (withMemberCount) object.num_members = conversation.members.length;
  return object;
}
