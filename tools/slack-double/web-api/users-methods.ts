/** `auth.test`, `users.*` and `usergroups.users.list`: who the bot is and who everyone else is. */
import { type ApiMethod, boolArg, fail, missingArgument, ok, paginate, stringArg } from './args.ts';
import { conversationObject } from './channel-access.ts';

const authTest: ApiMethod = (workspace) => {
  const bot = workspace.user(workspace.botUserId);
  return ok({
    url: `https://${workspace.team.domain}.slack.com/`,
    team: workspace.team.name,
    user: bot?.name ?? 'bot',
    team_id: workspace.team.id,
    user_id: workspace.botUserId,
    bot_id: workspace.botId,
    app_id: workspace.appId,
    is_enterprise_install: false,
  });
};

const usersInfo: ApiMethod = (workspace, args) => {
  const userId = stringArg(args, 'user');
  if (userId === undefined) return missingArgument('user');
  const user = workspace.user(userId);
  return user ? ok({ user }) : fail('user_not_found');
};

const lookupByEmail: ApiMethod = (workspace, args) => {
  const email = stringArg(args, 'email');
  if (email === undefined) return missingArgument('email');
  const user = workspace.userByEmail(email);
  return user ? ok({ user }) : fail('users_not_found');
};

const usergroupUsers: ApiMethod = (workspace, args) => {
  const groupId = stringArg(args, 'usergroup');
  if (groupId === undefined) return missingArgument('usergroup');
  const members = workspace.usergroupMembers(groupId);
  if (!members) return fail('no_such_subteam');
  // Deactivated people leave the list unless the caller asks for them, as in Slack.
  const includeDisabled = boolArg(args, 'include_disabled');
  const users = members.filter((id) => includeDisabled || workspace.user(id)?.deleted !== true);
  return ok({ users });
};

const CONVERSATION_TYPES = ['public_channel', 'private_channel', 'mpim', 'im'] as const;

// The conversations a user (the bot, unless `user` names another) is a member of, by `types`
// (default public channels only, as Slack's), archived ones left out when asked.
const usersConversations: ApiMethod = (workspace, args) => {
  const userId = stringArg(args, 'user') ?? workspace.botUserId;
  if (!workspace.user(userId)) return fail('user_not_found');
  const types = (stringArg(args, 'types') ?? 'public_channel').split(',').map((t) => t.trim());
  if (types.some((t) => !(CONVERSATION_TYPES as readonly string[]).includes(t)))
    return fail('invalid_types');
  const kindOf = (c: { isIm: boolean; isMpim: boolean; isPrivate: boolean }) =>
    c.isIm ? 'im' : c.isMpim ? 'mpim' : c.isPrivate ? 'private_channel' : 'public_channel';
  const excludeArchived = boolArg(args, 'exclude_archived');
  const found = workspace
    .conversationsOf(userId)
    .filter((c) => types.includes(kindOf(c)) && !(excludeArchived && c.isArchived));
  const paged = paginate(found, args);
  if ('failure' in paged) return paged.failure;
  return ok({
    channels: paged.page.map((c) => conversationObject(workspace, c)),
    response_metadata: { next_cursor: paged.nextCursor },
  });
};

/** The identity methods the double implements. */
export const usersMethods: Record<string, ApiMethod> = {
  'auth.test': authTest,
  'users.info': usersInfo,
  'users.lookupByEmail': lookupByEmail,
  'usergroups.users.list': usergroupUsers,
  'users.conversations': usersConversations,
};
