import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import {
  RequesterNotices,
  recentResolutions,
} from '../../../src/slack/threads/requester-notices.ts';
import { MemoryClaimStore } from '../../../src/store/memory-claims.ts';
import { MemoryFairShareStore } from '../../../src/store/memory-fair-share.ts';

const noSlack = {} as WebClient;

describe('the requester’s notices kept', () => {
  it('keeps no notice for a ticket that had none', async () => {
    const notices = new RequesterNotices(noSlack, new MemoryClaimStore(Date.now));
    expect(await notices.latest('IT-1')).toBeUndefined();
  });

  it('names the latest notice of a ticket resolved twice', async () => {
    const notices = new RequesterNotices(noSlack, new MemoryClaimStore(Date.now));
    await notices.record('IT-1', { channel: 'D0ALICE', ts: '1.000001' });
    await notices.record('IT-1', { channel: 'D0ALICE', ts: '2.000001' });
    await notices.record('IT-2', { channel: 'D0BOB', ts: '3.000001' });
    expect(await notices.latest('IT-1')).toEqual({ channel: 'D0ALICE', ts: '2.000001' });
    expect(await notices.latest('IT-2')).toEqual({ channel: 'D0BOB', ts: '3.000001' });
  });

  it('asks Slack nothing while the ticket is resolved or closed', async () => {
    const notices = new RequesterNotices(noSlack, new MemoryClaimStore(Date.now));
    await notices.record('IT-1', { channel: 'D0ALICE', ts: '1.000001' });
    // A client with no methods: any call to Slack would reject.
    await expect(notices.refresh({ id: 'IT-1', status: 'resolved' })).resolves.toBeUndefined();
    await expect(notices.refresh({ id: 'IT-1', status: 'closed' })).resolves.toBeUndefined();
  });
});

describe('a person’s recent resolutions', () => {
  const DAY = 86_400_000;
  const kept = (windowMs: number) => ({ kept: new MemoryFairShareStore(Date.now), windowMs });

  it('lists the person’s resolved tickets newest first, each once', async () => {
    const recent = kept(3 * DAY);
    const notices = new RequesterNotices(noSlack, new MemoryClaimStore(Date.now), recent);
    await notices.resolvedFor('U1', { ticketId: 'IT-1', title: 'VPN' });
    await notices.resolvedFor('U1', { ticketId: 'IT-2' });
    await notices.resolvedFor('U1', { ticketId: 'IT-1', title: 'VPN' });
    await notices.resolvedFor('U2', { ticketId: 'IT-3' });
    const ids = (await recentResolutions(recent, 'U1')).map((r) => r.ticketId);
    expect(ids).toEqual(['IT-1', 'IT-2']);
  });

  it('counts none once the window has passed, and keeps none with a window of 0', async () => {
    const recent = kept(3 * DAY);
    await new RequesterNotices(noSlack, new MemoryClaimStore(Date.now), recent).resolvedFor('U1', {
      ticketId: 'IT-1',
    });
    expect(await recentResolutions(recent, 'U1', Date.now() + 3 * DAY)).toEqual([]);
    const off = kept(0);
    await new RequesterNotices(noSlack, new MemoryClaimStore(Date.now), off).resolvedFor('U1', {
      ticketId: 'IT-1',
    });
    expect(await recentResolutions({ ...off, windowMs: DAY }, 'U1')).toEqual([]);
  });
});
