/**
 * Bolt's `authorize` for the app's one workspace: the bot token, with the bot's user and bot ids
 * from `auth.test`, asked once and kept. Given a `token`, Bolt calls `auth.test` in its
 * constructor and leaves the promise to the first request: with Slack away at start, that is an
 * unhandled rejection. Here every `auth.test` has an owner: the request that needs the ids, whose
 * failure goes to Bolt's error path, and a failed one is asked again by the next request.
 */
import type { Authorize } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';

/** Builds the `authorize` function around the client that asks `auth.test`. */
export function botAuthorization(client: WebClient, botToken: string): Authorize<boolean> {
  let identity: Promise<{ botUserId?: string; botId?: string }> | undefined;
  return async () => {
    identity ??= client.auth.test().then(
      (answer) => ({
        ...(answer.user_id ? { botUserId: answer.user_id } : {}),
        ...(answer.bot_id ? { botId: answer.bot_id } : {}),
      }),
      (error: unknown) => {
        identity = undefined;
        throw error;
      },
    );
    return { botToken, ...(await identity) };
  };
}
