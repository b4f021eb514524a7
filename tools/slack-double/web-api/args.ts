/**
 * Reading Web API arguments and writing Slack's answers. Bolt's WebClient sends form-encoded
 * bodies in which objects (blocks, view, metadata) arrive as JSON strings and booleans as
 * "true"/"false", so every reader accepts both the JSON and the form spelling.
 */
import { isJsonObject } from '../block-kit.ts';
import type { Workspace } from '../workspace.ts';

/** The arguments of one Web API call, from the body (form or JSON) and the query string. */
export type ApiArgs = Record<string, unknown>;

/** A Web API answer: `{ ok: true, ... }` or `{ ok: false, error, response_metadata? }`. */
export interface ApiResponse {
  ok: boolean;
  error?: string;
  [field: string]: unknown;
}

/** A Web API method of the double: reads and changes the workspace, answers like Slack. */
export type ApiMethod = (workspace: Workspace, args: ApiArgs) => ApiResponse;

/** A successful answer with these fields. */
export function ok(fields: Record<string, unknown> = {}): ApiResponse {
  return { ok: true, ...fields };
}

/** A refusal with Slack's error string and, where Slack gives them, its detail messages. */
export function fail(error: string, messages?: string[]): ApiResponse {
  return messages && messages.length > 0
    ? { ok: false, error, response_metadata: { messages } }
    : { ok: false, error };
}

/** Slack's answer to a call without a required argument. */
export function missingArgument(name: string): ApiResponse {
  return fail('invalid_arguments', [`[ERROR] missing required field: ${name}`]);
}

/** A non-empty string argument (numbers are accepted as their decimal form). */
export function stringArg(args: ApiArgs, name: string): string | undefined {
  const value = args[name];
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A boolean argument: true, "true" or "1". */
export function boolArg(args: ApiArgs, name: string): boolean {
  const value = args[name];
  return value === true || value === 1 || value === 'true' || value === '1';
}

/** An integer argument within [1, max], else the fallback. */
export function intArg(args: ApiArgs, name: string, fallback: number, max: number): number {
  const raw = args[name];
  const value = typeof raw === 'number' ? raw : Number.parseInt(String(raw ?? ''), 10);
  if (!Number.isFinite(value) || value <= 0) return fallback;
  return Math.min(Math.trunc(value), max);
}

/** A JSON argument, decoded when it came as a string; `invalid` when the string is not JSON. */
export function jsonArg(
  args: ApiArgs,
  name: string,
):
  | { present: false }
  | { present: true; invalid: true }
  | { present: true; invalid: false; value: unknown } {
  const raw = args[name];
  if (raw === undefined || raw === null || raw === '') return { present: false };
  if (typeof raw !== 'string') return { present: true, invalid: false, value: raw };
  try {
    return { present: true, invalid: false, value: JSON.parse(raw) as unknown };
  } catch {
    return { present: true, invalid: true };
  }
}

/** A JSON object argument, undefined when absent or not an object. */
export function objectArg(args: ApiArgs, name: string): Record<string, unknown> | undefined {
  const parsed = jsonArg(args, name);
  return parsed.present && !parsed.invalid && isJsonObject(parsed.value) ? parsed.value : undefined;
}

/** A comma-separated list argument (`users=U1,U2`), or a JSON array. */
export function listArg(args: ApiArgs, name: string): string[] {
  const raw = args[name];
  if (Array.isArray(raw)) return raw.map(String);
  if (typeof raw !== 'string') return [];
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

function encodeCursor(offset: number): string {
  return Buffer.from(`next:${offset}`).toString('base64');
}

/**
 * One page of a list, as Slack's cursor pagination gives it: `limit` (default 100, at most
 * 1,000) items from the `cursor`, and the cursor of the next page ('' on the last).
 */
export function paginate<T>(
  items: readonly T[],
  args: ApiArgs,
): { page: T[]; nextCursor: string } | { failure: ApiResponse } {
  const limit = intArg(args, 'limit', 100, 1000);
  const cursor = stringArg(args, 'cursor');
  let offset = 0;
  if (cursor !== undefined) {
    const match = /^next:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
    if (!match) return { failure: fail('invalid_cursor') };
    offset = Number(match[1]);
  }
  const page = items.slice(offset, offset + limit);
  const next = offset + limit < items.length ? encodeCursor(offset + limit) : '';
  return { page, nextCursor: next };
}
