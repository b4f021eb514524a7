/**
 * "Dismiss" on the closed-ticket prompt: removes the prompt (it was only ever the person's).
 * Prompts no longer carry the button (Slack's own "Dismiss message" link does it); the handler
 * stays for the prompts already sent with it, copies in direct messages among them.
 */
import type { ButtonArgs } from './button-click.ts';

/** Removes the private prompt. */
export async function closedReplyDismiss({ ack, body, respond }: ButtonArgs): Promise<void> {
  await ack();
  // Only a message (the prompt) has a response_url; a crafted click from a view has none.
  if (body.response_url) await respond({ delete_original: true });
}
