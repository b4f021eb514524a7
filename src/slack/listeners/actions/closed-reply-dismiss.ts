/** "Dismiss" on the closed-ticket prompt: removes the prompt (it was only ever the person's). */
import type { ButtonArgs } from './button-click.ts';

/** Removes the private prompt. */
export async function closedReplyDismiss({ ack, body, respond }: ButtonArgs): Promise<void> {
  await ack();
  // Only a message (the prompt) has a response_url; a crafted click from a view has none.
  if (body.response_url) await respond({ delete_original: true });
}
