import { describe, expect, it } from 'vitest';
import { PostDeferredError } from '../../src/mirror/errors.ts';
import {
  MirrorComponent,
  type MirrorComponentOptions,
  ownMessageIdMark,
  ownMessageTextMark,
  PERSON_ASKED_MARK,
  reopenAnnouncedMark,
  slackChangeMark,
} from '../../src/mirror/index.ts';
import { createMemoryStores } from '../../src/store/index.ts';
import type { MirrorStore } from '../../src/store/types.ts';
import { emptyModel, RecordingPoster, TENANT } from './support.ts';

const NOW = 1_767_225_600_000;
const THREAD = { channel: 'C0HELP', threadTs: '1767225600.000100' };

function setUp(options: Partial<MirrorComponentOptions> = {}) {
  const stores = createMemoryStores({ now: () => NOW });
  const warnings: string[] = [];
  const logger = {
    debug() {},
    info() {},
    error() {},
    warn: (_obj: object, msg?: string) => void warnings.push(msg ?? ''),
  };
  const mirror = new MirrorComponent({
    platform: {} as MirrorComponentOptions['platform'],
    stores,
    logger,
    paced: false,
    now: () => NOW,
    ...options,
  });
  return { mirror, stores, warnings };
}

/** A ticket as the platform answers its filing: created a minute ago under the IT desk. */
function filedTicket() {
  const model = emptyModel(() => NOW - 60_000);
  return model.createTicket(TENANT, {
    title: 'Printer',
    requester_email: 'alice@acme.example',
    desk_id: 'it',
  });
}

/** Lets the writes the mirror started without waiting for them settle. */
function settled(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('the mirror as the Slack side tells it', () => {
  it('looks for the answer to a write from Slack two seconds after it', async () => {
    const { mirror, stores } = setUp();
    await stores.links.link('IT-1', THREAD);
    await mirror.slackWrote('IT-1');
    expect(await stores.schedule.dueAt('IT-1')).toBe(NOW + 2_000);
    expect((await stores.mirror.state('IT-1'))?.slackWriteAt).toBe(NOW);
  });

  it('looks at a ticket changed from Slack at once, reading its activity', async () => {
    const { mirror, stores } = setUp();
    await mirror.slackChanged('IT-1');
    expect(await stores.schedule.dueAt('IT-1')).toBe(NOW);
    expect((await stores.mirror.state('IT-1'))?.hintedAt).toBe(NOW);
  });

  it('logs a write it could not schedule instead of failing the write', async () => {
    const { mirror, stores, warnings } = setUp();
    stores.mirror.noteSlackWrite = async () => {
      throw new Error('Redis away');
    };
    await expect(mirror.slackWrote('IT-1')).resolves.toBeUndefined();
    expect(warnings).toEqual(['mirror not told about a write']);
  });

  it('schedules nothing for a write from Slack where no mirror runs', async () => {
    const { mirror, stores } = setUp({ runs: false });
    await mirror.slackWrote('IT-1');
    await mirror.slackChanged('IT-1');
    expect(await stores.schedule.size()).toBe(0);
  });

  it('remembers a message about to be added from Slack by its author and text', async () => {
    const { mirror, stores } = setUp();
    await mirror.rememberOwnMessage('IT-1', 'alice@acme.example', 'Any news?');
    const mark = ownMessageTextMark('alice@acme.example', 'Any news?');
    expect(await stores.mirror.isOwn('IT-1', [mark])).toBe(true);
  });

  it('remembers a message added from Slack by its id', async () => {
    const { mirror, stores } = setUp();
    await mirror.rememberOwnMessageId('IT-1', 'm-7');
    expect(await stores.mirror.isOwn('IT-1', [ownMessageIdMark('m-7')])).toBe(true);
  });

  it('marks each change about to be made from Slack by what it changes and who makes it', async () => {
    const { mirror, stores } = setUp();
    await mirror.rememberSlackChanges('IT-1', [
      { type: 'status_changed', from: 'open', to: 'resolved', actorEmail: 'sam@acme.example' },
    ]);
    const mark = slackChangeMark('status_changed', 'open', 'resolved', 'sam@acme.example');
    expect(await stores.mirror.isOwn('IT-1', [mark])).toBe(true);
  });

  it('writes nothing for an update that changes none of the mirrored fields', async () => {
    const { mirror, stores } = setUp();
    let written = false;
    const original: MirrorStore['rememberOwn'] = stores.mirror.rememberOwn.bind(stores.mirror);
    stores.mirror.rememberOwn = async (ticketId, marks) => {
      written = true;
      await original(ticketId, marks);
    };
    await mirror.rememberSlackChanges('IT-1', []);
    expect(written).toBe(false);
  });

  it('remembers a reopening the thread was already told of, by the message that caused it', async () => {
    const { mirror, stores } = setUp();
    await mirror.reopenAnnounced('IT-1', 'm-9');
    expect(await stores.mirror.isOwn('IT-1', [reopenAnnouncedMark('m-9')])).toBe(true);
  });

  it('knows that the requester asked for a person once told', async () => {
    const { mirror, stores } = setUp();
    expect(await mirror.isPersonAsked('IT-1')).toBe(false);
    await mirror.personAsked('IT-1');
    expect(await mirror.isPersonAsked('IT-1')).toBe(true);
    expect(await stores.mirror.isOwn('IT-1', [PERSON_ASKED_MARK])).toBe(true);
  });

  it('says what it last read of a ticket, and when', async () => {
    const { mirror, stores } = setUp();
    expect(await mirror.lastRead('IT-1')).toBeUndefined();
    await stores.mirror.noteSlackWrite('IT-1', NOW);
    expect(await mirror.lastRead('IT-1')).toEqual({
      status: undefined,
      requesterEmail: undefined,
      polledAt: 0,
    });
  });

  it('keeps a filed ticket’s desk and creation, so a sweep finds it on its page', async () => {
    const { mirror, stores } = setUp();
    const ticket = filedTicket();
    mirror.ticketFiled(ticket);
    await settled();
    expect((await stores.feed.facts([ticket.id])).get(ticket.id)).toMatchObject({
      deskId: 'it',
      createdAt: NOW - 60_000,
      updatedAt: NOW - 60_000,
    });
  });

  it('logs a filed ticket’s facts it could not keep instead of failing the filing', async () => {
    const { mirror, stores, warnings } = setUp();
    stores.feed.noteFacts = async () => {
      throw new Error('Redis away');
    };
    expect(() => mirror.ticketFiled(filedTicket())).not.toThrow();
    await settled();
    expect(warnings).toEqual(['ticket facts not kept']);
  });

  it('builds no worker where no mirror runs', () => {
    const { mirror } = setUp({ runs: false });
    expect(mirror.attach({} as never)).toBeUndefined();
  });

  describe('a message written from Slack', () => {
    const TRIAGE = { channel: 'C0TRIAGE', threadTs: '1767225600.000200', triage: true };

    /** A public message an agent added from a triage card, as the platform returned it. */
    function agentReply() {
      const model = emptyModel(() => NOW);
      const ticket = model.createTicket(TENANT, {
        title: 'Printer',
        requester_email: 'alice@acme.example',
      });
      return model.addMessage(TENANT, ticket.id, {
        body: 'Please try the left tray',
        author_email: 'sam.rivera@acme.example',
        internal: false,
      });
    }

    function attached() {
      const setup = setUp();
      const poster = new RecordingPoster();
      setup.mirror.attach(poster);
      return { ...setup, poster };
    }

    it('is posted at once into each linked thread, and a second telling posts nothing more', async () => {
      const { mirror, stores, poster } = attached();
      await stores.links.link('IT-1', THREAD);
      await stores.links.link('IT-1', TRIAGE);
      const message = agentReply();
      await mirror.messageWritten('IT-1', message);
      await mirror.messageWritten('IT-1', message);
      expect(
        poster.posts.map((post) => (post.kind === 'message' ? post.thread : undefined)),
      ).toEqual([THREAD, TRIAGE]);
    });

    it('is left alone, without a warning, while another replica is posting it', async () => {
      const { mirror, stores, poster, warnings } = attached();
      await stores.links.link('IT-1', THREAD);
      const message = agentReply();
      const key = JSON.stringify([message.id, THREAD.channel, THREAD.threadTs]);
      await stores.mirror.claimPost('IT-1', key, 30_000);
      await mirror.messageWritten('IT-1', message);
      expect(poster.posts).toEqual([]);
      expect(warnings).toEqual([]);
    });

    it('is left to a look of the mirror at once when Slack fails its post', async () => {
      const { mirror, stores, poster, warnings } = attached();
      await stores.links.link('IT-1', THREAD);
      poster.failures = 1;
      await mirror.messageWritten('IT-1', agentReply());
      expect(poster.posts).toEqual([]);
      expect(warnings).toEqual([
        'message written from Slack not posted at once; the mirror posts it',
      ]);
      expect(await stores.schedule.dueAt('IT-1')).toBe(NOW + 1_000);
      expect((await stores.mirror.state('IT-1'))?.messageHintedAt).toBe(NOW);
    });

    it('is left to a look of the mirror when Slack allows it when Slack answers 429', async () => {
      const { mirror, stores, poster } = attached();
      await stores.links.link('IT-1', THREAD);
      poster.nextPostError = new PostDeferredError(NOW + 30_000);
      await mirror.messageWritten('IT-1', agentReply());
      expect(poster.posts).toEqual([]);
      expect(await stores.schedule.dueAt('IT-1')).toBe(NOW + 30_000);
    });
  });
});
