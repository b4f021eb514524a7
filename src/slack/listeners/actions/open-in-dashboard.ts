/** The card's "Open in dashboard" link button: Slack opens the URL; the app only acknowledges. */
import type { AllMiddlewareArgs, SlackActionMiddlewareArgs } from '@slack/bolt';

/** Acknowledges the link button (Slack sends an action for URL buttons too). */
export async function openInDashboard({
  ack,
}: SlackActionMiddlewareArgs & AllMiddlewareArgs): Promise<void> {
  await ack();
}
