import { describe, expect, it } from 'vitest';
import type { ButtonArgs } from '../../../../src/slack/listeners/actions/button-click.ts';
import { closedReplyDismiss } from '../../../../src/slack/listeners/actions/closed-reply-dismiss.ts';

/** A click on Dismiss, as an older prompt (a copy in a direct message) still carries it. */
function clickOn(responseUrl: string | undefined, responded: unknown[]) {
  return {
    ack: async () => undefined,
    body: { user: { id: 'U0ALICE' }, ...(responseUrl ? { response_url: responseUrl } : {}) },
    respond: async (message: unknown) => {
      responded.push(message);
    },
  } as unknown as ButtonArgs;
}

describe('Dismiss on a prompt sent before prompts dropped the button', () => {
  it('deletes the prompt it was clicked on', async () => {
    const responded: unknown[] = [];
    await closedReplyDismiss(clickOn('https://hooks.slack.test/r/1', responded));
    expect(responded).toEqual([{ delete_original: true }]);
  });

  it('does nothing for a click that came from no message', async () => {
    const responded: unknown[] = [];
    await closedReplyDismiss(clickOn(undefined, responded));
    expect(responded).toEqual([]);
  });
});
