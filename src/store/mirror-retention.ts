/** What both mirror-store backends agree on: how long the app's own-message marks are kept. */

/**
 * How long a message the app added from Slack is remembered as its own: long enough for any
 * poll to have passed it, even after a long outage, and refreshed by every new one.
 */
export const OWN_MESSAGES_TTL_MS = 30 * 86_400_000;
