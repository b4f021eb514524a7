/**
 * How both change-feed backends keep their values as text, so the in-memory twin hands back
 * copies exactly as Redis would and both refuse the same damaged data.
 */
import { requireKey, requireTime } from './argument-checks.ts';
import { StoreDataError } from './errors.ts';
import { decodeJson, encodeJson } from './json-codec.ts';
import type { ChangeFeedRecord, TicketFacts } from './types.ts';

/** The record's data as text, its scan time checked. */
export function encodeFeedRecord(record: ChangeFeedRecord): { scannedAt: number; data: string } {
  return {
    scannedAt: requireTime(Math.floor(record.scannedAt), 'scannedAt'),
    data: encodeJson(record.data, 'change-feed state'),
  };
}

/** The record from what a backend kept. */
export function decodeFeedRecord(scannedAt: string | number, data: string): ChangeFeedRecord {
  const at = Number(scannedAt);
  if (!Number.isSafeInteger(at))
    throw new StoreDataError('stored change-feed scan time is not a number');
  return { scannedAt: at, data: decodeJson(data, 'change-feed state') };
}

/** One ticket's facts as text, checked. */
export function encodeFacts(ticketId: string, facts: TicketFacts): string {
  requireKey(ticketId, 'ticket ID');
  return JSON.stringify({
    deskId: facts.deskId,
    createdAt: requireTime(Math.floor(facts.createdAt), 'createdAt'),
    updatedAt: requireTime(Math.floor(facts.updatedAt), 'updatedAt'),
    ...(facts.fields === undefined ? {} : { fields: String(facts.fields) }),
  });
}

/** One ticket's facts from their text. */
export function decodeFacts(text: string): TicketFacts {
  const value = decodeJson(text, 'ticket facts');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StoreDataError('stored ticket facts are not an object');
  }
  const { deskId, createdAt, updatedAt, fields } = value;
  if (
    (deskId !== null && typeof deskId !== 'string') ||
    typeof createdAt !== 'number' ||
    typeof updatedAt !== 'number' ||
    (fields !== undefined && typeof fields !== 'string')
  ) {
    throw new StoreDataError('stored ticket facts lack a field');
  }
  return { deskId, createdAt, updatedAt, ...(fields === undefined ? {} : { fields }) };
}
