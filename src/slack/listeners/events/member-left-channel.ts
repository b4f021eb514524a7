/**
 * Someone left a channel (or was removed): when it is a triage channel, they stop being its
 * desk's agent at once. Only the kept members change: no Slack call, no store write.
 */
import type { z } from 'zod';
import type { SlackDeps } from '../../deps.ts';
import type { channelMemberShape } from './event-shapes.ts';

/** Builds the member_left_channel handler. */
export function memberLeftChannel(deps: Pick<SlackDeps, 'triageMembers'>) {
  return async (event: z.infer<typeof channelMemberShape>): Promise<void> => {
    deps.triageMembers.left(event.channel, event.user);
  };
}
