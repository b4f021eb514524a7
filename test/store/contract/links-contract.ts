/** The thread-links contract: every backend's ThreadLinks must pass it. */
import { describe, expect, it } from 'vitest';
import { ThreadLinkedElsewhereError } from '../../../src/store/errors.ts';
import type { StoresBackend } from './harness.ts';
import { fakeClock } from './harness.ts';

const THREAD = { channel: 'C0123', threadTs: '1700000000.000100' };
const OTHER = { channel: 'C0456', threadTs: '1700000001.000200' };

/** Registers the thread-links contract against a backend. */
export function describeLinksContract(backend: StoresBackend): void {
  describe('thread links', () => {
    it('links map both ways', async () => {
      const { links } = backend.namespace(fakeClock()).open();
      expect(await links.link('IT-12', THREAD)).toBe(true);
      expect(await links.ticketForThread(THREAD.channel, THREAD.threadTs)).toBe('IT-12');
      expect(await links.threadsForTicket('IT-12')).toEqual([THREAD]);
    });

    it('linking twice is harmless', async () => {
      const { links } = backend.namespace(fakeClock()).open();
      await links.link('IT-12', THREAD);
      expect(await links.link('IT-12', THREAD)).toBe(false);
      expect(await links.threadsForTicket('IT-12')).toEqual([THREAD]);
      expect(await links.ticketForThread(THREAD.channel, THREAD.threadTs)).toBe('IT-12');
    });

    it('a ticket lists every thread linked to it in link order', async () => {
      const clock = fakeClock();
      const { links } = backend.namespace(clock).open();
      await links.link('IT-12', OTHER);
      clock.advance(1);
      await links.link('IT-12', THREAD);
      expect(await links.threadsForTicket('IT-12')).toEqual([OTHER, THREAD]);
    });

    it('linking a thread to another ticket leaves it with its ticket and says so', async () => {
      const { links } = backend.namespace(fakeClock()).open();
      await links.link('IT-12', THREAD);
      const refused = await links.link('IT-13', THREAD).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ThreadLinkedElsewhereError);
      expect(refused).toMatchObject({ linkedTo: 'IT-12' });
      expect(await links.ticketForThread(THREAD.channel, THREAD.threadTs)).toBe('IT-12');
      expect(await links.threadsForTicket('IT-12')).toEqual([THREAD]);
      expect(await links.threadsForTicket('IT-13')).toEqual([]);
    });

    it('linking a thread to another ticket with move moves it', async () => {
      const { links } = backend.namespace(fakeClock()).open();
      await links.link('IT-12', THREAD);
      expect(await links.link('IT-13', THREAD, { move: true })).toBe(true);
      expect(await links.ticketForThread(THREAD.channel, THREAD.threadTs)).toBe('IT-13');
      expect(await links.threadsForTicket('IT-12')).toEqual([]);
      expect(await links.threadsForTicket('IT-13')).toEqual([THREAD]);
    });

    it('unlink removes both directions and is harmless when repeated', async () => {
      const { links } = backend.namespace(fakeClock()).open();
      await links.link('IT-12', THREAD);
      await links.link('IT-12', OTHER);
      expect(await links.unlink('IT-12', THREAD)).toBe(true);
      expect(await links.unlink('IT-12', THREAD)).toBe(false);
      expect(await links.ticketForThread(THREAD.channel, THREAD.threadTs)).toBeUndefined();
      expect(await links.threadsForTicket('IT-12')).toEqual([OTHER]);
    });

    it('unlink leaves a thread alone when it belongs to another ticket', async () => {
      const { links } = backend.namespace(fakeClock()).open();
      await links.link('IT-12', THREAD);
      expect(await links.unlink('IT-99', THREAD)).toBe(false);
      expect(await links.ticketForThread(THREAD.channel, THREAD.threadTs)).toBe('IT-12');
    });

    it('a triage thread is listed as the triage thread, beside the requester threads', async () => {
      const clock = fakeClock();
      const { links } = backend.namespace(clock).open();
      await links.link('IT-12', THREAD);
      clock.advance(1);
      expect(await links.link('IT-12', { ...OTHER, triage: true })).toBe(true);
      expect(await links.threadsForTicket('IT-12')).toEqual([THREAD, { ...OTHER, triage: true }]);
      expect(await links.ticketForThread(OTHER.channel, OTHER.threadTs)).toBe('IT-12');
    });

    it('linking a linked thread again as triage changes nothing', async () => {
      const { links } = backend.namespace(fakeClock()).open();
      await links.link('IT-12', THREAD);
      expect(await links.link('IT-12', { ...THREAD, triage: true })).toBe(false);
      expect(await links.threadsForTicket('IT-12')).toEqual([THREAD]);
    });

    it('a triage thread unlinks by its channel and ts alone', async () => {
      const { links } = backend.namespace(fakeClock()).open();
      await links.link('IT-12', { ...THREAD, triage: true });
      expect(await links.unlink('IT-12', THREAD)).toBe(true);
      expect(await links.threadsForTicket('IT-12')).toEqual([]);
      expect(await links.ticketForThread(THREAD.channel, THREAD.threadTs)).toBeUndefined();
    });

    it('a triage thread moved to another ticket leaves the first', async () => {
      const { links } = backend.namespace(fakeClock()).open();
      await links.link('IT-12', { ...THREAD, triage: true });
      await links.link('IT-13', { ...THREAD, triage: true }, { move: true });
      expect(await links.threadsForTicket('IT-12')).toEqual([]);
      expect(await links.threadsForTicket('IT-13')).toEqual([{ ...THREAD, triage: true }]);
    });

    it('an unknown thread or ticket has no links', async () => {
      const { links } = backend.namespace(fakeClock()).open();
      expect(await links.ticketForThread('C0999', '1.2')).toBeUndefined();
      expect(await links.threadsForTicket('IT-404')).toEqual([]);
    });

    it('lists the channels holding linked threads', async () => {
      const { links } = backend.namespace(fakeClock()).open();
      expect(await links.channels()).toEqual([]);
      await links.link('IT-12', OTHER);
      await links.link('IT-12', THREAD);
      await links.link('IT-13', { channel: THREAD.channel, threadTs: '1700000002.000300' });
      expect(await links.channels()).toEqual([THREAD.channel, OTHER.channel]);
    });

    it('unlinks every thread in the given channels and leaves the others', async () => {
      const { links } = backend.namespace(fakeClock()).open();
      const triage = { channel: 'G0TRIAGE', threadTs: '1700000003.000400', triage: true };
      await links.link('IT-12', THREAD);
      await links.link('IT-12', triage);
      await links.link('IT-12', OTHER);
      await links.link('IT-13', { channel: THREAD.channel, threadTs: '1700000002.000300' });
      expect(await links.unlinkChannels([THREAD.channel, 'G0TRIAGE', 'C0NONE'])).toBe(3);
      expect(await links.threadsForTicket('IT-12')).toEqual([OTHER]);
      expect(await links.threadsForTicket('IT-13')).toEqual([]);
      expect(await links.ticketForThread(THREAD.channel, THREAD.threadTs)).toBeUndefined();
      expect(await links.ticketForThread(OTHER.channel, OTHER.threadTs)).toBe('IT-12');
      expect(await links.channels()).toEqual([OTHER.channel]);
    });
  });
}
