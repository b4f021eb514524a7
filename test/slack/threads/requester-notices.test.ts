import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { RequesterNotices } from '../../../src/slack/threads/requester-notices.ts';
import { MemoryClaimStore } from '../../../src/store/memory-claims.ts';

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
