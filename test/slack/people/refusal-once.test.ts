import { describe, expect, it } from 'vitest';
import { isFirstRefusal, REFUSAL_REPEAT_MS } from '../../../src/slack/people/refusal-once.ts';
import { MemoryClaimStore } from '../../../src/store/memory-claims.ts';
import type { ClaimStore } from '../../../src/store/types.ts';
import { fakePart } from '../support/fake-deps.ts';

const ask = { userId: 'U0BOB', ticketId: 'IT-9', action: 'mark_resolved' };

describe('a refusal told once', () => {
  it('tells the first refusal and not a repeat within the window', async () => {
    const claims = new MemoryClaimStore(() => 1_000);
    expect(await isFirstRefusal(claims, ask)).toBe(true);
    expect(await isFirstRefusal(claims, ask)).toBe(false);
  });

  it('tells the refusal again once the window has passed', async () => {
    let now = 1_000;
    const claims = new MemoryClaimStore(() => now);
    expect(await isFirstRefusal(claims, ask)).toBe(true);
    now += REFUSAL_REPEAT_MS;
    expect(await isFirstRefusal(claims, ask)).toBe(true);
  });

  it('tells refusals of another person, ticket or button each', async () => {
    const claims = new MemoryClaimStore(() => 1_000);
    expect(await isFirstRefusal(claims, ask)).toBe(true);
    expect(await isFirstRefusal(claims, { ...ask, userId: 'U0CAROL' })).toBe(true);
    expect(await isFirstRefusal(claims, { ...ask, ticketId: 'IT-10' })).toBe(true);
    expect(await isFirstRefusal(claims, { ...ask, action: 'reopen_ticket' })).toBe(true);
  });

  it('tells the refusal when the store cannot answer', async () => {
    const broken = fakePart<ClaimStore>('claims', {
      claim: async () => {
        throw new Error('Redis is away');
      },
    });
    expect(await isFirstRefusal(broken, ask)).toBe(true);
  });
});
