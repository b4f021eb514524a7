/** The mirror-store contract: every backend's MirrorStore must pass it. */
import { describe, expect, it } from 'vitest';
import { emptyMirrorRecord } from '../../../src/store/mirror-record.ts';
import type { MirrorRecord } from '../../../src/store/types.ts';
import type { StoresBackend } from './harness.ts';
import { fakeClock } from './harness.ts';

const LEASE = 30_000;

function state(overrides: Partial<MirrorRecord> = {}): MirrorRecord {
  return {
    activityCursor: 4,
    messageCursor: 2,
    messagesAnnounced: 2,
    lastActivityAt: 1_700_000_000_000,
    lastAnswerAt: 1_699_999_000_000,
    lastPolledAt: 1_700_000_001_000,
    backoffStep: 0,
    status: 'open',
    settledAt: undefined,
    requesterEmail: 'alice@acme.example',
    ticket: '{"id":"IT-1","status":"open"}',
    firstResponseAt: 0,
    slackWriteAt: 0,
    hintedAt: 0,
    messageHintedAt: 0,
    announcedAt: 0,
    ...overrides,
  };
}

/** Registers the mirror-store contract against a backend. */
export function describeMirrorContract(backend: StoresBackend): void {
  describe('mirror store', () => {
    it('knows nothing of a ticket it never saw', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      expect(await mirror.state('IT-1')).toBeUndefined();
    });

    it('keeps a ticket in a record it saved, leaving the rest, and starts a record for a ticket it has none of', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      await mirror.saveState('IT-1', state());
      await mirror.keepTicket('IT-1', '{"id":"IT-1","status":"resolved"}');
      expect(await mirror.state('IT-1')).toEqual(
        state({ ticket: '{"id":"IT-1","status":"resolved"}' }),
      );
      // A triage card's ticket, kept before the mirror first polls it: its clocks need it.
      await mirror.keepTicket('IT-2', '{"id":"IT-2"}');
      expect(await mirror.state('IT-2')).toEqual({
        ...emptyMirrorRecord(),
        ticket: '{"id":"IT-2"}',
      });
    });

    it('keeps the first response once seen and never moves it back', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      await mirror.saveState('IT-1', state({ firstResponseAt: 1_700_000_005_000 }));
      // A slow poller that read the ticket before the answer saves none.
      await mirror.saveState('IT-1', state({ firstResponseAt: 0 }));
      expect((await mirror.state('IT-1'))?.firstResponseAt).toBe(1_700_000_005_000);
    });

    it('gives back the state it saved', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      const saved = state({ status: 'resolved', settledAt: 1_700_000_002_000, backoffStep: 3 });
      await mirror.saveState('IT-1', saved);
      expect(await mirror.state('IT-1')).toEqual(saved);
      // The kept ticket is saved as given, and none is none.
      await mirror.saveState('IT-1', { ...saved, ticket: undefined });
      expect((await mirror.state('IT-1'))?.ticket).toBeUndefined();
    });

    it('keeps an unknown status and requester as unknown', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      const saved = state({ status: undefined, requesterEmail: undefined });
      await mirror.saveState('IT-1', saved);
      expect(await mirror.state('IT-1')).toEqual(saved);
    });

    it('never moves cursors or times back, while the other fields follow the last save', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      await mirror.saveState('IT-1', state({ activityCursor: 9, messageCursor: 5 }));
      await mirror.saveState(
        'IT-1',
        state({ activityCursor: 7, messageCursor: 6, lastActivityAt: 1, backoffStep: 2 }),
      );
      expect(await mirror.state('IT-1')).toMatchObject({
        activityCursor: 9,
        messageCursor: 6,
        lastActivityAt: 1_700_000_000_000,
        backoffStep: 2,
      });
    });

    it('records the latest write from Slack, which a save does not overwrite', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      await mirror.noteSlackWrite('IT-1', 1_700_000_005_000);
      await mirror.noteSlackWrite('IT-1', 1_700_000_004_000);
      expect((await mirror.state('IT-1'))?.slackWriteAt).toBe(1_700_000_005_000);
      await mirror.saveState('IT-1', state());
      expect((await mirror.state('IT-1'))?.slackWriteAt).toBe(1_700_000_005_000);
    });

    it('records the latest hint from the platform, which a save or a write from Slack leaves alone', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      await mirror.noteHint('IT-1', 1_700_000_007_000);
      await mirror.noteHint('IT-1', 1_700_000_006_000);
      expect((await mirror.state('IT-1'))?.hintedAt).toBe(1_700_000_007_000);
      await mirror.saveState('IT-1', state());
      await mirror.noteSlackWrite('IT-1', 1_700_000_008_000);
      expect(await mirror.state('IT-1')).toMatchObject({
        hintedAt: 1_700_000_007_000,
        slackWriteAt: 1_700_000_008_000,
      });
    });

    it('records a message hint apart from a hint of any other change', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      await mirror.noteHint('IT-1', 1_700_000_007_000, 'message');
      await mirror.noteHint('IT-1', 1_700_000_006_000, 'message');
      await mirror.noteHint('IT-1', 1_700_000_005_000);
      await mirror.saveState('IT-1', state());
      expect(await mirror.state('IT-1')).toMatchObject({
        messageHintedAt: 1_700_000_007_000,
        hintedAt: 1_700_000_005_000,
      });
    });

    it('records a change the platform’s webhook announced as a hinted change, and apart', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      await mirror.noteHint('IT-1', 1_700_000_007_000, 'announced');
      await mirror.noteHint('IT-1', 1_700_000_008_000);
      expect(await mirror.state('IT-1')).toMatchObject({
        announcedAt: 1_700_000_007_000,
        hintedAt: 1_700_000_008_000,
        messageHintedAt: 0,
      });
    });

    it('claims a post once, and reports it done once completed', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      const claim = await mirror.claimPost('IT-1', 'msg_1 C1 1.2', LEASE);
      expect(claim).toEqual({ state: 'claimed', token: expect.any(String), retaken: false });
      expect(await mirror.claimPost('IT-1', 'msg_1 C1 1.2', LEASE)).toEqual({ state: 'busy' });
      if (claim.state !== 'claimed') throw new Error('expected the claim');
      expect(await mirror.completePost('IT-1', 'msg_1 C1 1.2', claim.token)).toBe(true);
      expect(await mirror.claimPost('IT-1', 'msg_1 C1 1.2', LEASE)).toEqual({ state: 'done' });
    });

    it('gives one post to exactly one of two replicas claiming it at once', async () => {
      const ns = backend.namespace(fakeClock());
      const outcomes = await Promise.all([
        ns.open(0).mirror.claimPost('IT-1', 'msg_1', LEASE),
        ns.open(1).mirror.claimPost('IT-1', 'msg_1', LEASE),
      ]);
      expect(outcomes.map((o) => o.state).sort()).toEqual(['busy', 'claimed']);
    });

    it('retakes a post whose holder’s lease lapsed, saying it may be posted already', async () => {
      const clock = fakeClock();
      const { mirror } = backend.namespace(clock).open();
      const stale = await mirror.claimPost('IT-1', 'msg_1', LEASE);
      clock.advance(LEASE);
      const fresh = await mirror.claimPost('IT-1', 'msg_1', LEASE);
      expect(fresh).toMatchObject({ state: 'claimed', retaken: true });
      if (stale.state !== 'claimed') throw new Error('expected the claim');
      expect(await mirror.completePost('IT-1', 'msg_1', stale.token)).toBe(false);
    });

    it('after a release the next claim is told the post may be there already', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      const claim = await mirror.claimPost('IT-1', 'msg_1', LEASE);
      if (claim.state !== 'claimed') throw new Error('expected the claim');
      expect(await mirror.releasePost('IT-1', 'msg_1', claim.token)).toBe(true);
      expect(await mirror.claimPost('IT-1', 'msg_1', LEASE)).toMatchObject({
        state: 'claimed',
        retaken: true,
      });
      expect(await mirror.releasePost('IT-1', 'msg_1', claim.token)).toBe(false);
    });

    it('remembers the app’s own messages per ticket', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      await mirror.rememberOwn('IT-1', ['id:msg_7', 'text:abc']);
      expect(await mirror.isOwn('IT-1', ['id:msg_8', 'text:abc'])).toBe(true);
      expect(await mirror.isOwn('IT-1', ['id:msg_7'])).toBe(true);
      expect(await mirror.isOwn('IT-1', ['id:msg_8'])).toBe(false);
      expect(await mirror.isOwn('IT-2', ['id:msg_7'])).toBe(false);
      expect(await mirror.isOwn('IT-1', [])).toBe(false);
    });

    it('keeps what it knows of a ticket it is told to forget until the time is up', async () => {
      const { mirror } = backend.namespace(fakeClock()).open();
      await mirror.saveState('IT-1', state());
      await mirror.forget('IT-1', 60_000);
      expect(await mirror.state('IT-1')).toEqual(state());
    });
  });
}
