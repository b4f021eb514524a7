/**
 * Each refusal told once: a person who clicks a button they may not use three times in a row
 * is refused once, not three times. The claim store is shared by every replica, so repeats
 * that land on different replicas are still one.
 */
import type { ClaimStore } from '../../store/types.ts';

/** How long a refusal stands for repeats of the same click. */
export const REFUSAL_REPEAT_MS = 10_000;

/** What was refused: who asked, about which ticket, with which button. */
export interface RefusedAsk {
  userId: string;
  ticketId: string;
  /** The button's action id. */
  action: string;
}

/** Whether this refusal is the first of its kind within the window, and so is told. */
export async function isFirstRefusal(claims: ClaimStore, ask: RefusedAsk): Promise<boolean> {
  try {
    // Never completed: the lease lapsing is what lets the next refusal through.
    const outcome = await claims.claim(
      `refusal:${ask.userId}:${ask.ticketId}:${ask.action}`,
      REFUSAL_REPEAT_MS,
    );
    return outcome.state === 'claimed';
  } catch {
    // Without the store a repeat may be told twice, which is better than not told at all.
    return true;
  }
}
