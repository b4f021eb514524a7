/** `pins.*`: the bot pins a message, lists a conversation's pins and unpins one. */
import { type ApiMethod, fail, missingArgument, ok, stringArg } from './args.ts';
import { accessChannel } from './channel-access.ts';

const add: ApiMethod = (workspace, args) => {
  const access = accessChannel(workspace, stringArg(args, 'channel'), 'write');
  if ('failure' in access) return access.failure;
  const ts = stringArg(args, 'timestamp');
  if (ts === undefined) return missingArgument('timestamp');
  const result = workspace.pin(access.conversation.id, ts, workspace.botUserId);
  return result === 'ok' ? ok() : fail(result);
};

const remove: ApiMethod = (workspace, args) => {
  const access = accessChannel(workspace, stringArg(args, 'channel'), 'write');
  if ('failure' in access) return access.failure;
  const ts = stringArg(args, 'timestamp');
  if (ts === undefined) return missingArgument('timestamp');
  const result = workspace.unpin(access.conversation.id, ts);
  return result === 'ok' ? ok() : fail(result);
};

const list: ApiMethod = (workspace, args) => {
  const access = accessChannel(workspace, stringArg(args, 'channel'), 'read');
  if ('failure' in access) return access.failure;
  const channel = access.conversation.id;
  const items = workspace.pinned(channel).map(({ message, created, createdBy }) => {
    // Slack's description of the listed message names no metadata: the double gives none, so
    // the app reads it where Slack documents it (conversations.history, include_all_metadata).
    const { metadata: _metadata, ...shown } = message;
    return {
      type: 'message',
      channel,
      created,
      created_by: createdBy,
      message: {
        ...shown,
        pinned_to: [channel],
        permalink: workspace.permalink(channel, message.ts),
      },
    };
  });
  return ok({ items });
};

/** The `pins.*` methods the double implements. */
export const pinsMethods: Record<string, ApiMethod> = {
  'pins.add': add,
  'pins.list': list,
  'pins.remove': remove,
};
