/** The change-feed contract: every backend's ChangeFeedStore must pass it. */
import { describe, expect, it } from 'vitest';
import type { TicketFacts } from '../../../src/store/types.ts';
import type { StoresBackend } from './harness.ts';
import { fakeClock } from './harness.ts';

const FACTS: TicketFacts = {
  deskId: 'it',
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_050_000,
};

/** Registers the change-feed contract against a backend. */
export function describeFeedContract(backend: StoresBackend): void {
  describe('change feed', () => {
    it('has no record before the first save, and hands back what was saved', async () => {
      const ns = backend.namespace(fakeClock());
      expect(await ns.open(0).feed.state()).toBeUndefined();
      const data = { way: 'filter', cursor: 1_700_000_000_000, ranges: { it: [1, 2] } };
      expect(await ns.open(0).feed.saveState({ scannedAt: 10, data })).toBe(true);
      expect(await ns.open(1).feed.state()).toEqual({ scannedAt: 10, data });
    });

    it('never replaces a later scan’s record with an earlier one', async () => {
      const ns = backend.namespace(fakeClock());
      await ns.open(0).feed.saveState({ scannedAt: 20, data: { cursor: 2 } });
      expect(await ns.open(1).feed.saveState({ scannedAt: 10, data: { cursor: 1 } })).toBe(false);
      expect(await ns.open(1).feed.saveState({ scannedAt: 20, data: { cursor: 3 } })).toBe(true);
      expect(await ns.open(0).feed.state()).toEqual({ scannedAt: 20, data: { cursor: 3 } });
    });

    it('keeps facts of tickets and leaves out those it has none of', async () => {
      const ns = backend.namespace(fakeClock());
      await ns.open(0).feed.noteFacts(
        new Map([
          ['IT-1', FACTS],
          ['IT-2', { ...FACTS, deskId: null }],
          ['IT-4', { ...FACTS, fields: '["open","high",null]' }],
        ]),
      );
      const found = await ns.open(1).feed.facts(['IT-1', 'IT-2', 'IT-3', 'IT-4']);
      expect([...found]).toEqual([
        ['IT-1', FACTS],
        ['IT-2', { ...FACTS, deskId: null }],
        ['IT-4', { ...FACTS, fields: '["open","high",null]' }],
      ]);
    });

    it('replaces a ticket’s facts and forgets them on request', async () => {
      const ns = backend.namespace(fakeClock());
      const { feed } = ns.open(0);
      await feed.noteFacts(new Map([['IT-1', FACTS]]));
      await feed.noteFacts(new Map([['IT-1', { ...FACTS, updatedAt: FACTS.updatedAt + 1 }]]));
      expect((await feed.facts(['IT-1'])).get('IT-1')?.updatedAt).toBe(FACTS.updatedAt + 1);
      await feed.forgetFacts(['IT-1']);
      expect((await feed.facts(['IT-1'])).size).toBe(0);
    });

    it('asks for nothing when given no tickets', async () => {
      const { feed } = backend.namespace(fakeClock()).open();
      await feed.noteFacts(new Map());
      await feed.forgetFacts([]);
      expect((await feed.facts([])).size).toBe(0);
    });

    it('refuses facts with a time that is not whole milliseconds', async () => {
      const { feed } = backend.namespace(fakeClock()).open();
      await expect(
        feed.noteFacts(new Map([['IT-1', { ...FACTS, createdAt: Number.NaN }]])),
      ).rejects.toMatchObject({ code: 'STORE_INVALID_ARGUMENT' });
      expect((await feed.facts(['IT-1'])).size).toBe(0);
    });
  });
}
