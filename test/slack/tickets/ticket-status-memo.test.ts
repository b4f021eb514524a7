import { describe, expect, it } from 'vitest';
import { TicketStatusMemo } from '../../../src/slack/tickets/ticket-status-memo.ts';

const seen = (id: string, status: string) => ({
  id,
  status,
  requester_email: 'Alice@acme.example',
});

describe('ticket status memo', () => {
  it('remembers the status and the requester’s email in lower case', () => {
    const memo = new TicketStatusMemo({ now: () => 0 });
    memo.remember(seen('IT-1', 'resolved'));
    expect(memo.get('it-1')).toEqual({
      status: 'resolved',
      requesterEmail: 'alice@acme.example',
      at: 0,
    });
  });

  it('forgets a status other than closed once it is older than the ttl', () => {
    let now = 0;
    const memo = new TicketStatusMemo({ ttlMs: 1_000, now: () => now });
    memo.remember(seen('IT-1', 'resolved'));
    now = 1_001;
    expect(memo.get('IT-1')).toBeUndefined();
  });

  it('keeps closed however old, because closed is final', () => {
    let now = 0;
    const memo = new TicketStatusMemo({ ttlMs: 1_000, now: () => now });
    memo.remember(seen('IT-1', 'closed'));
    now = 10_000_000;
    expect(memo.isClosed('IT-1')).toBe(true);
  });

  it('forgets the least recently seen ticket beyond its bound', () => {
    const memo = new TicketStatusMemo({ maxEntries: 2, now: () => 0 });
    memo.remember(seen('IT-1', 'open'));
    memo.remember(seen('IT-2', 'open'));
    memo.remember(seen('IT-1', 'open'));
    memo.remember(seen('IT-3', 'open'));
    expect(memo.get('IT-2')).toBeUndefined();
    expect(memo.get('IT-1')?.status).toBe('open');
    expect(memo.get('IT-3')?.status).toBe('open');
  });

  it('keeps the requester when only the status changes', () => {
    const memo = new TicketStatusMemo({ now: () => 0 });
    memo.remember(seen('IT-1', 'resolved'));
    memo.setStatus('IT-1', 'open');
    expect(memo.get('IT-1')).toMatchObject({
      status: 'open',
      requesterEmail: 'alice@acme.example',
    });
  });

  it('keeps a newer version when a read that saw an older one returns later', () => {
    const memo = new TicketStatusMemo({ now: () => 0 });
    memo.remember({ ...seen('IT-1', 'resolved'), updated_at: '2026-11-26T10:00:05Z' });
    memo.remember({ ...seen('IT-1', 'open'), updated_at: '2026-11-26T10:00:00Z' });
    expect(memo.get('IT-1')?.status).toBe('resolved');
  });

  it('takes a read of a newer version', () => {
    const memo = new TicketStatusMemo({ now: () => 0 });
    memo.remember({ ...seen('IT-1', 'resolved'), updated_at: '2026-11-26T10:00:05Z' });
    memo.remember({ ...seen('IT-1', 'open'), updated_at: '2026-11-26T10:00:09Z' });
    expect(memo.get('IT-1')?.status).toBe('open');
  });

  it('keeps a change the app made over a read of the version before it', () => {
    const memo = new TicketStatusMemo({ now: () => 0 });
    memo.remember({ ...seen('IT-1', 'resolved'), updated_at: '2026-11-26T10:00:05Z' });
    memo.setStatus('IT-1', 'open');
    memo.remember({ ...seen('IT-1', 'resolved'), updated_at: '2026-11-26T10:00:05Z' });
    expect(memo.get('IT-1')?.status).toBe('open');
  });

  it('ignores a status change older than the version it knows', () => {
    const memo = new TicketStatusMemo({ now: () => 0 });
    memo.remember({ ...seen('IT-1', 'resolved'), updated_at: '2026-11-26T10:00:05Z' });
    memo.setStatus('IT-1', 'open', { asOf: '2026-11-26T09:59:00Z' });
    expect(memo.get('IT-1')?.status).toBe('resolved');
  });
});
