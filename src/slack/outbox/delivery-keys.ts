/**
 * Delivery keys: the identity of a person's request, taken from Slack's own delivery identity
 * (docs/architecture.md, "Guarantees"). The same key reaches every replica and every retry, and, hashed,
 * the platform as X-Idempotency-Key.
 */

/** An Events API delivery: the same on Slack's retries and on every replica. */
export function eventKey(body: {
  api_app_id?: string;
  team_id?: string;
  event_id?: string;
}): string {
  return `event:${body.api_app_id ?? '-'}:${body.team_id ?? '-'}:${body.event_id ?? '-'}`;
}

/** A ticket made from one Slack message (a reaction, a message shortcut): one per message. */
export function messageKey(channel: string, ts: string): string {
  return `msg:${channel}:${ts}`;
}

/**
 * A ticket filed from a message in a ticket's thread, apart from that ticket (a prompt's or a
 * notice's button): one per message, whoever clicks. Not `messageKey`, which a 🎫 on the same
 * message takes to learn the thread is already a ticket.
 */
export function threadMessageKey(channel: string, ts: string): string {
  return `thread-msg:${channel}:${ts}`;
}

/**
 * A Workflow Builder step's run (`function_executed`): its function execution id, the same on
 * Slack's redeliveries, so one run files one ticket.
 */
export function functionExecutionKey(executionId: string): string {
  return `function:${executionId}`;
}

/** The one completion (`functions.completeSuccess` or `completeError`) of a step's run. */
export function stepCompletionKey(executionId: string): string {
  return `function-done:${executionId}`;
}
