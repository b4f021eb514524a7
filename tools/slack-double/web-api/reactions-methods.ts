/** `reactions.add`: the bot adds an emoji to a message. */
import { type ApiMethod, fail, missingArgument, ok, stringArg } from './args.ts';
import { accessChannel } from './channel-access.ts';

const EMOJI_NAME = /^[a-z0-9_+\-']+$/;

const add: ApiMethod = (workspace, args) => {
  const access = accessChannel(workspace, stringArg(args, 'channel'), 'write');
  if ('failure' in access) return access.failure;
  const ts = stringArg(args, 'timestamp');
  if (ts === undefined) return missingArgument('timestamp');
  const name = stringArg(args, 'name');
  if (name === undefined) return missingArgument('name');
  // Slack accepts the name with or without colons.
  const bare = name.replace(/^:|:$/g, '');
  if (!EMOJI_NAME.test(bare)) return fail('invalid_name');
  const result = workspace.addReaction(access.conversation.id, ts, bare, workspace.botUserId);
  return result === 'ok' ? ok() : fail(result);
};

/** The `reactions.*` methods the double implements. */
export const reactionsMethods: Record<string, ApiMethod> = {
  'reactions.add': add,
};
