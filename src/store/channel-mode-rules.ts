/** Checks shared by both channel-mode stores, so they accept and read back the same things. */
import { requireKey } from './argument-checks.ts';
import { InvalidStoreArgumentError, StoreDataError } from './errors.ts';
import { CHANNEL_MODES, type ChannelMode } from './types.ts';

/** Whether a text is one of the modes. */
export function isChannelMode(value: unknown): value is ChannelMode {
  return (CHANNEL_MODES as readonly unknown[]).includes(value);
}

/** A channel and mode a caller may store. */
export function checkChannelMode(channel: string, mode: ChannelMode): void {
  requireKey(channel, 'channel id');
  if (!isChannelMode(mode)) {
    throw new InvalidStoreArgumentError(`channel mode must be one of ${CHANNEL_MODES.join(', ')}`);
  }
}

/** A stored mode as read back; anything else was not written by this store. */
export function decodeChannelMode(text: string): ChannelMode {
  if (!isChannelMode(text)) throw new StoreDataError('stored channel mode is not a known mode');
  return text;
}
