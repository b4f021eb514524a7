/**
 * Request channels: a channel whose mode is `auto` files every new top-level message a person
 * writes there as a ticket on the channel's desk (CHANNEL_DESKS). The mode an agent set in
 * Slack wins over the deployment's default (CHANNEL_MODES); a channel named in neither is off.
 */
import type { ChannelMode } from '../../store/types.ts';
import type { SlackDeps } from '../deps.ts';

/** How long a request channel's message waits before it is filed when nothing says: 3 s. */
export const DEFAULT_AUTO_HOLD_MS = 3_000;

/** The channel's mode as it stands, for every replica alike. */
export async function channelModeOf(
  deps: Pick<SlackDeps, 'stores' | 'settings'>,
  channel: string,
): Promise<ChannelMode> {
  const set = await deps.stores.channelModes.get(channel);
  return set ?? deps.settings.channelModes?.get(channel) ?? 'off';
}

/** Whether a conversation can be a request channel: a public or private channel. */
export function isRequestChannelType(channelType: string | undefined): boolean {
  return channelType === 'channel' || channelType === 'group';
}
