/**
 * Waits until a change to the ticket can no longer be taken for the app's own write from
 * Slack: the change feed reads a change no later than that write (plus the clock margin, 1 s)
 * as the write itself, left to the first look after it. A person on the platform answers
 * later than that; a test whose agent answers at once would be testing the margin instead.
 */

import { eventually } from './eventually.ts';
import type { Stack } from './stack.ts';

const CLOCK_MARGIN_MS = 1_000;

/** Resolves once the ticket's last write from Slack is more than the clock margin ago. */
export async function pastOwnWrite(stack: Stack, ticketId: string): Promise<void> {
  const state = await eventually(
    async () => {
      const saved = await stack.app.stores.mirror.state(ticketId);
      return saved && saved.slackWriteAt > 0 ? saved : undefined;
    },
    10_000,
    'the write from Slack noted by the mirror',
  );
  const wait = state.slackWriteAt + CLOCK_MARGIN_MS + 50 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
