/** Idempotency keys: how a Slack delivery identity becomes an X-Idempotency-Key value. */
import { createHash } from 'node:crypto';

// Versioned namespace: changing how keys are derived must not collide with keys already
// remembered by the platform (24 h), so a new scheme gets a new prefix.
const NAMESPACE = 'servicedesk-slack:idempotency:v1:';

/**
 * The X-Idempotency-Key for a raw key (a Slack delivery identity such as
 * `api_app_id:team_id:event_id`): the SHA-256 hex of the namespaced raw key. The same raw key
 * gives the same value in every process, and no Slack identifier reaches the platform.
 */
export function hashIdempotencyKey(raw: string): string {
  if (typeof raw !== 'string' || raw.length === 0) {
    throw new TypeError('hashIdempotencyKey needs a non-empty string');
  }
  return createHash('sha256').update(NAMESPACE).update(raw, 'utf8').digest('hex');
}

const HEADER_SAFE = /^[\x21-\x7e]{1,255}$/;

/** Refuses a key that cannot travel in a header, before anything is sent. */
export function assertIdempotencyKey(key: string): void {
  if (typeof key !== 'string' || !HEADER_SAFE.test(key)) {
    throw new TypeError(
      'idempotencyKey must be 1 to 255 visible ASCII characters (use hashIdempotencyKey)',
    );
  }
}
