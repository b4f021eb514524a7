/**
 * Someone joined a channel: when it is a triage channel, they are its desk's agent from now on
 * (while it is private). Only the kept members change: no Slack call, no store write.
 */
import type { z } from 'zod';
import type { SlackDeps } from '../../deps.ts';
import type { channelMemberShape } from './event-shapes.ts';

/** Builds the member_joined_channel handler. */
export function memberJoinedChannel(deps: Pick<SlackDeps, 'triageMembers'>) {
  return async (event: z.infer<typeof channelMemberShape>): Promise<void> => {
    deps.triageMembers.joined(event.channel, event.user);
  };
}
