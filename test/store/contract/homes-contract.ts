/** The conversation-homes contract: every backend's ConversationHomes must pass it. */
import { describe, expect, it } from 'vitest';
import type { StoresBackend } from './harness.ts';
import { fakeClock } from './harness.ts';

/** Registers the conversation-homes contract against a backend. */
export function describeHomesContract(backend: StoresBackend): void {
  describe('conversation homes', () => {
    it('knows no home for an id never noted', async () => {
      const { homes } = backend.namespace(fakeClock()).open();
      expect(await homes.homeOf('C0ITHELP')).toBeUndefined();
    });

    it('gives back the home last noted for an id, to every replica', async () => {
      const namespace = backend.namespace(fakeClock());
      await namespace.open(0).homes.note('U0AGENT', 'T0001');
      expect(await namespace.open(1).homes.homeOf('U0AGENT')).toBe('T0001');
      await namespace.open(1).homes.note('U0AGENT', 'T0002');
      expect(await namespace.open(0).homes.homeOf('U0AGENT')).toBe('T0002');
    });

    it('adopts only the ids with no home yet and counts them', async () => {
      const { homes } = backend.namespace(fakeClock()).open();
      await homes.note('C0EUHELP', 'T0002');
      expect(await homes.adopt(['C0ITHELP', 'C0EUHELP', 'C0AGENTS'], 'T0001')).toBe(2);
      expect(await homes.homeOf('C0ITHELP')).toBe('T0001');
      expect(await homes.homeOf('C0AGENTS')).toBe('T0001');
      expect(await homes.homeOf('C0EUHELP')).toBe('T0002');
      expect(await homes.adopt([], 'T0001')).toBe(0);
    });

    it('forgets exactly one workspace’s ids and lists them', async () => {
      const { homes } = backend.namespace(fakeClock()).open();
      await homes.note('C0ITHELP', 'T0001');
      await homes.note('U0ALICE', 'T0001');
      await homes.note('C0EUHELP', 'T0002');
      expect(await homes.forget('T0001')).toEqual(['C0ITHELP', 'U0ALICE']);
      expect(await homes.homeOf('C0ITHELP')).toBeUndefined();
      expect(await homes.homeOf('U0ALICE')).toBeUndefined();
      expect(await homes.homeOf('C0EUHELP')).toBe('T0002');
      expect(await homes.forget('T0001')).toEqual([]);
    });

    it('keeps a home however much time passes', async () => {
      const clock = fakeClock();
      const { homes } = backend.namespace(clock).open();
      await homes.note('C0ITHELP', 'E0001');
      clock.advance(400 * 86_400_000);
      expect(await homes.homeOf('C0ITHELP')).toBe('E0001');
    });

    it('refuses an empty id or workspace', async () => {
      const { homes } = backend.namespace(fakeClock()).open();
      await expect(homes.note('', 'T0001')).rejects.toMatchObject({
        code: 'STORE_INVALID_ARGUMENT',
      });
      await expect(homes.note('C0ITHELP', '')).rejects.toMatchObject({
        code: 'STORE_INVALID_ARGUMENT',
      });
      await expect(homes.adopt(['C0ITHELP', ''], 'T0001')).rejects.toMatchObject({
        code: 'STORE_INVALID_ARGUMENT',
      });
      expect(await homes.homeOf('C0ITHELP')).toBeUndefined();
    });
  });
}
