/** The channel-modes contract: every backend's ChannelModeStore must pass it. */
import { describe, expect, it } from 'vitest';
import type { ChannelMode } from '../../../src/store/types.ts';
import type { StoresBackend } from './harness.ts';
import { fakeClock } from './harness.ts';

/** Registers the channel-modes contract against a backend. */
export function describeChannelModesContract(backend: StoresBackend): void {
  describe('channel modes', () => {
    it('knows no mode for a channel no one set', async () => {
      const { channelModes } = backend.namespace(fakeClock()).open();
      expect(await channelModes.get('C0ITHELP')).toBeUndefined();
    });

    it('gives back the mode last set for a channel, to every replica', async () => {
      const namespace = backend.namespace(fakeClock());
      await namespace.open(0).channelModes.set('C0ITHELP', 'auto');
      expect(await namespace.open(1).channelModes.get('C0ITHELP')).toBe('auto');
      await namespace.open(1).channelModes.set('C0ITHELP', 'off');
      expect(await namespace.open(0).channelModes.get('C0ITHELP')).toBe('off');
    });

    it('keeps each channel’s mode apart', async () => {
      const { channelModes } = backend.namespace(fakeClock()).open();
      await channelModes.set('C0ITHELP', 'auto');
      await channelModes.set('G0AGENTS', 'off');
      expect(await channelModes.get('C0ITHELP')).toBe('auto');
      expect(await channelModes.get('G0AGENTS')).toBe('off');
    });

    it('keeps a mode however much time passes', async () => {
      const clock = fakeClock();
      const { channelModes } = backend.namespace(clock).open();
      await channelModes.set('C0ITHELP', 'auto');
      clock.advance(400 * 86_400_000);
      expect(await channelModes.get('C0ITHELP')).toBe('auto');
    });

    it('refuses an empty channel id and a mode it does not know', async () => {
      const { channelModes } = backend.namespace(fakeClock()).open();
      await expect(channelModes.get('')).rejects.toMatchObject({
        code: 'STORE_INVALID_ARGUMENT',
      });
      await expect(channelModes.set('C0ITHELP', 'on' as ChannelMode)).rejects.toMatchObject({
        code: 'STORE_INVALID_ARGUMENT',
      });
      expect(await channelModes.get('C0ITHELP')).toBeUndefined();
    });

    it('lists the channels with a mode and drops one channel’s mode', async () => {
      const { channelModes } = backend.namespace(fakeClock()).open();
      await channelModes.set('G0AGENTS', 'off');
      await channelModes.set('C0ITHELP', 'auto');
      expect(await channelModes.channels()).toEqual(['C0ITHELP', 'G0AGENTS']);
      expect(await channelModes.remove('C0ITHELP')).toBe(true);
      expect(await channelModes.remove('C0ITHELP')).toBe(false);
      expect(await channelModes.get('C0ITHELP')).toBeUndefined();
      expect(await channelModes.channels()).toEqual(['G0AGENTS']);
    });
  });
}
