/**
 * Conversations in Slack's AI pane. Each is a thread in the person's direct message with the
 * app, announced by `assistant_thread_started`; the first message written in it files a ticket
 * (the thread becomes the ticket's, as a direct message's does), and later ones are the
 * ticket's messages. What the pane shows besides the thread (its suggested prompts, its title,
 * the "Looking into it…" status) is cosmetic: a Slack failure there is logged and dropped, and
 * never costs the person's words or files anything twice.
 */
import type { Logger } from 'pino';
import type { ClaimStore } from '../../store/types.ts';
import type { PanePrompt } from '../builders/pane-prompts-builder.ts';
import { PANE_PROMPTS_TITLE, PANE_STATUS } from '../builders/pane-prompts-builder.ts';
import { isSlackCallError } from '../outbox/transient-errors.ts';

/** A pane conversation: its thread in the person's DM with the app. */
export interface PaneThread {
  channel: string;
  threadTs: string;
}

/** The Slack calls the pane's looks take (the bot's WebClient has them). */
export interface AssistantThreads {
  assistant: {
    threads: {
      setStatus(args: { channel_id: string; thread_ts: string; status: string }): Promise<unknown>;
      setTitle(args: { channel_id: string; thread_ts: string; title: string }): Promise<unknown>;
      setSuggestedPrompts(args: {
        channel_id: string;
        thread_ts: string;
        prompts: PanePrompt[];
        title?: string;
      }): Promise<unknown>;
    };
  };
}

// A person may open the pane and write days later; a filed thread is the links' from then on.
const PANE_THREAD_TTL_MS = 30 * 86_400_000;
// Two deliveries of messages in one new conversation at once: the second waits this long in
// all for the first to say which one files (a claim is a Redis round trip or two).
const FIRST_MESSAGE_WAIT_MS = 1_000;
const FIRST_MESSAGE_POLL_MS = 20;

const threadKey = (thread: PaneThread) => `pane-thread:${thread.channel}:${thread.threadTs}`;
const firstKey = (thread: PaneThread) => `pane-first:${thread.channel}:${thread.threadTs}`;

/** Remembers that the thread is a pane conversation (`assistant_thread_started`). */
export async function rememberPaneThread(
  claims: ClaimStore,
  thread: PaneThread,
  userId: string,
): Promise<void> {
  const key = threadKey(thread);
  const claim = await claims.claim(key, 10_000);
  // Already known (Slack's retry, another replica): nothing to add.
  if (claim.state !== 'claimed') return;
  await claims.complete(key, claim.token, { userId }, PANE_THREAD_TTL_MS);
}

/** Whether the thread is a pane conversation the app heard open. */
export async function isPaneThread(claims: ClaimStore, thread: PaneThread): Promise<boolean> {
  return (await claims.get(threadKey(thread))) !== undefined;
}

/**
 * The ts of the conversation's first message, the one that files its ticket: `ts` when it is
 * the first one asked about (and on every retry of it), another message's when that one came
 * first. Two replicas asking at once agree.
 */
export async function firstPaneMessage(
  claims: ClaimStore,
  thread: PaneThread,
  ts: string,
): Promise<string> {
  const key = firstKey(thread);
  const deadline = Date.now() + FIRST_MESSAGE_WAIT_MS;
  for (;;) {
    const claim = await claims.claim(key, 10_000);
    if (claim.state === 'claimed') {
      await claims.complete(key, claim.token, { ts }, PANE_THREAD_TTL_MS);
      return ts;
    }
    if (claim.state === 'done') {
      const first = (claim.result as { ts?: unknown } | null | undefined)?.ts;
      return typeof first === 'string' ? first : ts;
    }
    // Another delivery is between its claim and its record: a few milliseconds.
    if (Date.now() > deadline) return ts;
    await new Promise((resolve) => setTimeout(resolve, FIRST_MESSAGE_POLL_MS));
  }
}

/** What the pane's looks use. */
export interface PaneLooksDeps {
  client: AssistantThreads;
  logger: Logger;
}

// A Slack failure of a cosmetic call is logged and dropped; anything else is a bug, rethrown.
async function cosmetic(
  deps: PaneLooksDeps,
  what: string,
  thread: PaneThread,
  call: () => Promise<unknown>,
): Promise<boolean> {
  try {
    await call();
    return true;
  } catch (error) {
    if (!isSlackCallError(error)) throw error;
    deps.logger.warn(
      { err: error, channel: thread.channel, thread_ts: thread.threadTs },
      `the AI pane's ${what} was not set: Slack did not take it (it is only looks; nothing is lost)`,
    );
    return false;
  }
}

/** Shows "Looking into it…" in the pane until the app's next post in the thread. */
export function showPaneStatus(deps: PaneLooksDeps, thread: PaneThread): Promise<boolean> {
  return cosmetic(deps, 'status', thread, () =>
    deps.client.assistant.threads.setStatus({
      channel_id: thread.channel,
      thread_ts: thread.threadTs,
      status: PANE_STATUS,
    }),
  );
}

/** Names the pane's conversation (its History lists it so): the ticket's title. */
export function titlePane(
  deps: PaneLooksDeps,
  thread: PaneThread,
  title: string,
): Promise<boolean> {
  // Slack's titles are a line; a ticket's title may be long.
  const line = title.replace(/\s+/g, ' ').trim().slice(0, 255) || 'Service desk request';
  return cosmetic(deps, 'title', thread, () =>
    deps.client.assistant.threads.setTitle({
      channel_id: thread.channel,
      thread_ts: thread.threadTs,
      title: line,
    }),
  );
}

/** Offers the suggested prompts in a newly opened pane; none when there are none to offer. */
export async function suggestPanePrompts(
  deps: PaneLooksDeps,
  thread: PaneThread,
  prompts: readonly PanePrompt[],
): Promise<boolean> {
  if (prompts.length === 0) return false;
  return cosmetic(deps, 'suggested prompts', thread, () =>
    deps.client.assistant.threads.setSuggestedPrompts({
      channel_id: thread.channel,
      thread_ts: thread.threadTs,
      prompts: [...prompts],
      title: PANE_PROMPTS_TITLE,
    }),
  );
}
