/**
 * Install links' states: a random id signed with SLACK_STATE_SECRET (HMAC-SHA256), whose
 * install options are kept in the store until the redirect comes back once. A state not
 * signed with the secret is refused before the store is asked.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { InvalidOAuthStateError } from './errors.ts';

/** A new state and the id it is kept under. */
export function newState(secret: string): { id: string; state: string } {
  const id = randomBytes(24).toString('base64url');
  return { id, state: `${id}.${signature(secret, id)}` };
}

/** The id of a state signed with `secret`; InvalidOAuthStateError otherwise. */
export function stateId(secret: string, state: string): string {
  const [id = '', mac = '', ...rest] = state.split('.');
  const expected = Buffer.from(signature(secret, id));
  const given = Buffer.from(mac);
  if (rest.length > 0 || id === '' || given.length !== expected.length) {
    throw new InvalidOAuthStateError('not signed by this app');
  }
  if (!timingSafeEqual(given, expected)) throw new InvalidOAuthStateError('not signed by this app');
  return id;
}

function signature(secret: string, id: string): string {
  return createHmac('sha256', secret).update(id).digest('base64url');
}
