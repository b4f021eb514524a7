/** `conversations.*`: history, threads, DMs, channel lookups and members. */
import { compareTs, type SlackMessage, type Workspace } from '../workspace.ts';
import {
  type ApiArgs,
  type ApiMethod,
  boolArg,
  fail,
  listArg,
  missingArgument,
  ok,
  paginate,
  stringArg,
} from './args.ts';
import { accessChannel, conversationObject } from './channel-access.ts';

/** Slack returns message metadata from history and replies only when asked for it. */
function withoutMetadataUnlessAsked(messages: SlackMessage[], args: ApiArgs): SlackMessage[] {
  if (boolArg(args, 'include_all_metadata')) return messages;
  return messages.map(({ metadata: _metadata, ...rest }) => rest);
}

/** Keeps messages within `oldest`/`latest`, exclusive unless `inclusive` is set, like Slack. */
function withinRange(messages: SlackMessage[], args: ApiArgs): SlackMessage[] {
  const oldest = stringArg(args, 'oldest');
  const latest = stringArg(args, 'latest');
  const inclusive = boolArg(args, 'inclusive');
  return messages.filter((m) => {
    if (oldest !== undefined) {
      const c = compareTs(m.ts, oldest);
      if (c < 0 || (c === 0 && !inclusive)) return false;
    }
    if (latest !== undefined) {
      const c = compareTs(m.ts, latest);
      if (c > 0 || (c === 0 && !inclusive)) return false;
    }
    return true;
  });
}

const history: ApiMethod = (workspace, args) => {
  const access = accessChannel(workspace, stringArg(args, 'channel'), 'read');
  if ('failure' in access) return access.failure;
  const newestFirst = withinRange(workspace.history(access.conversation.id), args).reverse();
  const paged = paginate(newestFirst, args);
  if ('failure' in paged) return paged.failure;
  return ok({
    messages: withoutMetadataUnlessAsked(paged.page, args),
    has_more: paged.nextCursor !== '',
    pin_count: 0,
    channel_actions_ts: null,
    channel_actions_count: 0,
    response_metadata: { next_cursor: paged.nextCursor },
  });
};

const replies: ApiMethod = (workspace, args) => {
  const access = accessChannel(workspace, stringArg(args, 'channel'), 'read');
  if ('failure' in access) return access.failure;
  const ts = stringArg(args, 'ts');
  if (ts === undefined) return missingArgument('ts');
  const thread = workspace.thread(access.conversation.id, ts);
  if (!thread) return fail('thread_not_found');
  // The range narrows the replies only: the parent always comes first, as in Slack.
  const [parent, ...rest] = thread;
  const messages = parent ? [parent, ...withinRange(rest, args)] : [];
  const paged = paginate(messages, args);
  if ('failure' in paged) return paged.failure;
  return ok({
    messages: withoutMetadataUnlessAsked(paged.page, args),
    has_more: paged.nextCursor !== '',
    response_metadata: { next_cursor: paged.nextCursor },
  });
};

function openFor(workspace: Workspace, userIds: string[]): string | undefined {
  const others = userIds.filter((id) => id !== workspace.botUserId);
  if (others.length === 0) return undefined;
  if (others.length === 1) return workspace.openIm(others[0] as string);
  return workspace.openMpim(others);
}

const open: ApiMethod = (workspace, args) => {
  const existing = stringArg(args, 'channel');
  const users = listArg(args, 'users');
  if (existing === undefined && users.length === 0) return fail('users_list_not_supplied');
  let channelId: string | undefined = existing;
  if (existing === undefined) {
    if (users.length > 8) return fail('too_many_users');
    const unknown = users.find((id) => !workspace.user(id));
    if (unknown !== undefined) return fail('user_not_found');
    channelId = openFor(workspace, users);
    if (channelId === undefined) return fail('cannot_dm_bot');
  }
  const conversation = channelId === undefined ? undefined : workspace.conversation(channelId);
  if (!conversation?.members.includes(workspace.botUserId)) {
    return fail('channel_not_found');
  }
  const full = boolArg(args, 'return_im');
  return ok({
    no_op: false,
    already_open: false,
    channel: full ? conversationObject(workspace, conversation) : { id: conversation.id },
  });
};

const info: ApiMethod = (workspace, args) => {
  const access = accessChannel(workspace, stringArg(args, 'channel'), 'info');
  if ('failure' in access) return access.failure;
  const withCount = boolArg(args, 'include_num_members');
  return ok({ channel: conversationObject(workspace, access.conversation, withCount) });
};

const members: ApiMethod = (workspace, args) => {
  const access = accessChannel(workspace, stringArg(args, 'channel'), 'info');
  if ('failure' in access) return access.failure;
  const paged = paginate(access.conversation.members, args);
  if ('failure' in paged) return paged.failure;
  return ok({ members: paged.page, response_metadata: { next_cursor: paged.nextCursor } });
};

/** The `conversations.*` methods the double implements. */
export const conversationsMethods: Record<string, ApiMethod> = {
  'conversations.history': history,
  'conversations.replies': replies,
  'conversations.open': open,
  'conversations.info': info,
  'conversations.members': members,
};
