/** `auth.test`, `users.*` and `usergroups.users.list`: who the bot is and who everyone else is. */
import { type ApiMethod, boolArg, fail, missingArgument, ok, stringArg } from './args.ts';

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

/** The identity methods the double implements. */
export const usersMethods: Record<string, ApiMethod> = {
  'auth.test': authTest,
  'users.info': usersInfo,
  'users.lookupByEmail': lookupByEmail,
  'usergroups.users.list': usergroupUsers,
};
