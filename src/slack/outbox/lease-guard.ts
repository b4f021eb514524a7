/** The check that work done under an outbox lease can still finish inside it. */
import type { ReservedEntry } from '../../store/types.ts';
import { SLACK_CALL_MAX_MS } from '../app/slack-clients.ts';
import { LeaseRunningOutError } from '../errors.ts';

// Room for the Redis writes that record a post once it is made.
const LEASE_MARGIN_MS = 3_000;

/**
 * Throws `LeaseRunningOutError` unless the entry's lease has room for one more Slack call
 * (`SLACK_CALL_MAX_MS`): a post that outlived its lease could be made again by the worker that
 * takes the entry over.
 */
export function assertLeaseLeft(entry: ReservedEntry, now: number = Date.now()): void {
  const left = entry.leaseExpiresAt - now;
  if (left < SLACK_CALL_MAX_MS + LEASE_MARGIN_MS) throw new LeaseRunningOutError(entry.id, left);
}
