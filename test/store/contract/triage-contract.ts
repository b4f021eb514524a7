/** The triage-channel contract: every backend's TriageChannels must pass it. */
import { describe, expect, it } from 'vitest';
import type { StoresBackend } from './harness.ts';
import { fakeClock } from './harness.ts';

const DEFAULTS = new Map([
  ['it', 'C0DEFIT'],
  ['hr', 'C0DEFHR'],
]);

/** Registers the triage-channel contract against a backend. */
export function describeTriageContract(backend: StoresBackend): void {
  describe('triage channels', () => {
    it('has no triage channel for any desk before one is set', async () => {
      const { triageChannels } = backend.namespace(fakeClock()).open();
      expect(await triageChannels.channelFor('it')).toBeUndefined();
      expect(await triageChannels.channelFor(undefined)).toBeUndefined();
      expect(await triageChannels.all()).toEqual([]);
    });

    it('a desk’s channel set on one replica is the one every replica sends its tickets to', async () => {
      const ns = backend.namespace(fakeClock());
      expect(await ns.open(0).triageChannels.set('it', 'C0TRIAGE')).toBeUndefined();
      expect(await ns.open(1).triageChannels.channelFor('it')).toBe('C0TRIAGE');
    });

    it('sends tickets of a desk without a channel of its own, and of no desk, to the catch-all', async () => {
      const { triageChannels } = backend.namespace(fakeClock()).open();
      await triageChannels.set('it', 'C0ITTRIAGE');
      await triageChannels.set('*', 'C0CATCH');
      expect(await triageChannels.channelFor('it')).toBe('C0ITTRIAGE');
      expect(await triageChannels.channelFor('hr')).toBe('C0CATCH');
      expect(await triageChannels.channelFor(undefined)).toBe('C0CATCH');
    });

    it('moves a desk to the channel set last and says which channel it left', async () => {
      const { triageChannels } = backend.namespace(fakeClock()).open();
      await triageChannels.set('it', 'C0OLD');
      expect(await triageChannels.set('it', 'C0NEW')).toBe('C0OLD');
      expect(await triageChannels.channelFor('it')).toBe('C0NEW');
    });

    it('lets several desks share one channel and clears them all at once, naming them', async () => {
      const { triageChannels } = backend.namespace(fakeClock()).open();
      await triageChannels.set('it', 'C0SHARED');
      await triageChannels.set('hr', 'C0SHARED');
      await triageChannels.set('*', 'C0SHARED');
      await triageChannels.set('facilities', 'C0OTHER');
      expect(await triageChannels.clear('C0SHARED')).toEqual(['*', 'hr', 'it']);
      expect(await triageChannels.channelFor('it')).toBeUndefined();
      expect(await triageChannels.all()).toEqual([
        { desk: 'facilities', channel: 'C0OTHER', origin: 'slack' },
      ]);
    });

    it('clears nothing in a channel that triages no desk', async () => {
      const { triageChannels } = backend.namespace(fakeClock()).open();
      await triageChannels.set('it', 'C0ITTRIAGE');
      expect(await triageChannels.clear('C0ELSEWHERE')).toEqual([]);
      expect(await triageChannels.channelFor('it')).toBe('C0ITTRIAGE');
    });

    it('serves the defaults where nothing was set in Slack, and what was set there wins', async () => {
      const ns = backend.namespace(fakeClock(), { triageDefaults: DEFAULTS });
      const { triageChannels } = ns.open(0);
      expect(await triageChannels.channelFor('hr')).toBe('C0DEFHR');
      expect(await triageChannels.set('it', 'C0SLACK')).toBe('C0DEFIT');
      expect(await ns.open(1).triageChannels.channelFor('it')).toBe('C0SLACK');
      expect(await triageChannels.all()).toEqual([
        { desk: 'hr', channel: 'C0DEFHR', origin: 'default' },
        { desk: 'it', channel: 'C0SLACK', origin: 'slack' },
      ]);
    });

    it('keeps a default channel turned off, on every replica, and sends its desk to the catch-all', async () => {
      const ns = backend.namespace(fakeClock(), { triageDefaults: DEFAULTS });
      const { triageChannels } = ns.open(0);
      await triageChannels.set('*', 'C0CATCH');
      expect(await triageChannels.clear('C0DEFIT')).toEqual(['it']);
      const other = ns.open(1).triageChannels;
      expect(await other.channelFor('it')).toBe('C0CATCH');
      expect(await other.all()).toEqual([
        { desk: '*', channel: 'C0CATCH', origin: 'slack' },
        { desk: 'hr', channel: 'C0DEFHR', origin: 'default' },
      ]);
    });

    it('turns off a desk set in Slack over its default, rather than fall back to the default', async () => {
      const { triageChannels } = backend
        .namespace(fakeClock(), { triageDefaults: DEFAULTS })
        .open();
      await triageChannels.set('it', 'C0SLACK');
      expect(await triageChannels.clear('C0SLACK')).toEqual(['it']);
      expect(await triageChannels.channelFor('it')).toBeUndefined();
      expect(await triageChannels.clear('C0DEFIT')).toEqual([]);
    });

    it('takes a desk turned off back when it is set again', async () => {
      const { triageChannels } = backend
        .namespace(fakeClock(), { triageDefaults: DEFAULTS })
        .open();
      await triageChannels.clear('C0DEFIT');
      expect(await triageChannels.set('it', 'C0AGAIN')).toBeUndefined();
      expect(await triageChannels.channelFor('it')).toBe('C0AGAIN');
    });

    it('restores a desk found in Slack once the store is empty, on every replica', async () => {
      const ns = backend.namespace(fakeClock());
      expect(await ns.open(0).triageChannels.restore('it', 'C0FOUND')).toBe(true);
      expect(await ns.open(1).triageChannels.channelFor('it')).toBe('C0FOUND');
    });

    it('restores nothing over a desk set since, or turned off over its default', async () => {
      const { triageChannels } = backend
        .namespace(fakeClock(), { triageDefaults: DEFAULTS })
        .open();
      await triageChannels.set('it', 'C0SETSINCE');
      await triageChannels.clear('C0DEFHR');
      expect(await triageChannels.restore('it', 'C0FOUND')).toBe(false);
      expect(await triageChannels.restore('hr', 'C0FOUND')).toBe(false);
      expect(await triageChannels.channelFor('it')).toBe('C0SETSINCE');
      expect(await triageChannels.channelFor('hr')).toBeUndefined();
    });

    it('refuses an empty desk or channel', async () => {
      const { triageChannels } = backend.namespace(fakeClock()).open();
      await expect(triageChannels.set('', 'C0X')).rejects.toMatchObject({
        code: 'STORE_INVALID_ARGUMENT',
      });
      await expect(triageChannels.set('it', '')).rejects.toMatchObject({
        code: 'STORE_INVALID_ARGUMENT',
      });
      await expect(triageChannels.clear('')).rejects.toMatchObject({
        code: 'STORE_INVALID_ARGUMENT',
      });
      expect(await triageChannels.all()).toEqual([]);
    });
  });
}
