/**
 * Raising a ticket's priority one step (a 🔼 on its triage card): low → medium → high → urgent.
 * The step is taken from the priority the ticket had when the raise first ran, pinned against
 * its delivery key, so a retry whose first write landed (its answer lost) raises nothing more.
 */
import { TICKET_PRIORITIES, type TicketPriority } from '../../servicedesk/index.ts';
import type { ClaimStore } from '../../store/types.ts';

/** How long a raise's starting priority is kept: as long as its delivery key is. */
const PIN_KEEP_MS = 86_400_000;
/** How long a first run holds the pin before it is written: a crash in between frees it soon. */
const PIN_LEASE_MS = 30_000;

/** The priority one step above; undefined at the top (urgent) or for one the contract does not know. */
export function priorityAbove(priority: string | null | undefined): TicketPriority | undefined {
  const index = TICKET_PRIORITIES.indexOf(priority as TicketPriority);
  return index < 0 ? undefined : TICKET_PRIORITIES[index + 1];
}

/** Whether `priority` is at least `floor` in the contract's order (unknown ones are not). */
export function isAtLeast(priority: string | null | undefined, floor: TicketPriority): boolean {
  const index = TICKET_PRIORITIES.indexOf(priority as TicketPriority);
  return index >= 0 && index >= TICKET_PRIORITIES.indexOf(floor);
}

/**
 * The priority a raise starts from: the ticket's `current` one the first time the raise runs,
 * and that same one on every later attempt under the same delivery key.
 */
export async function pinnedRaiseFrom(
  claims: ClaimStore,
  deliveryKey: string,
  current: string | null | undefined,
): Promise<string | null> {
  const key = `raise-from:${deliveryKey}`;
  const claim = await claims.claim(key, PIN_LEASE_MS);
  if (claim.state === 'done') {
    const pinned = (claim.result as { from?: unknown } | undefined)?.from;
    if (typeof pinned === 'string' || pinned === null) return pinned;
  }
  const from = current ?? null;
  // Busy: an attempt that crashed before writing the pin (no write made yet), so the ticket as
  // it is now is where this raise starts; the outbox's lease keeps two attempts from running.
  if (claim.state === 'claimed') await claims.complete(key, claim.token, { from }, PIN_KEEP_MS);
  return from;
}
