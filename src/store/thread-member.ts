/**
 * One Slack thread as a string, shared by both backends: JSON, so a channel or ts holding any
 * character cannot make two threads collide.
 */
import { requireKey } from './argument-checks.ts';
import { StoreDataError } from './errors.ts';
import type { Thread } from './types.ts';

/** The string for a thread; refuses an empty channel or ts. */
export function threadMember(channel: string, threadTs: string): string {
  requireKey(channel, 'channel');
  requireKey(threadTs, 'thread ts');
  return JSON.stringify([channel, threadTs]);
}

/**
 * The string a ticket lists one of its threads by: `threadMember`'s, with a third element when
 * it is the ticket's triage thread.
 */
export function ticketThreadMember(thread: Thread): string {
  const member = threadMember(thread.channel, thread.threadTs);
  return thread.triage ? JSON.stringify([thread.channel, thread.threadTs, 'triage']) : member;
}

/** The thread behind a string written by `threadMember` or `ticketThreadMember`. */
export function parseThreadMember(member: string): Thread {
  let value: unknown;
  try {
    value = JSON.parse(member);
  } catch (error) {
    throw new StoreDataError('stored thread link is not valid JSON', { cause: error });
  }
  if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
    return value[2] === 'triage'
      ? { channel: value[0], threadTs: value[1], triage: true }
      : { channel: value[0], threadTs: value[1] };
  }
  throw new StoreDataError('stored thread link is not a [channel, ts] pair');
}
