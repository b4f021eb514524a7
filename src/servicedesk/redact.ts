/**
 * Keeping the access key out of everything the client hands back or logs. A server or a
 * transport library may echo request headers (in an error body, a mock's mismatch message),
 * so every string that leaves the client passes through here first.
 */

import { RedactedError } from './errors.ts';

/** What the key is replaced with. */
export const REDACTED = '[redacted]';

/** Replaces one secret wherever it appears in strings, objects and errors. */
export class Redactor {
  readonly #secret: string;

  constructor(secret: string) {
    this.#secret = secret;
  }

  /** The text with every occurrence of the secret replaced. */
  text(value: string): string {
    return value.includes(this.#secret) ? value.split(this.#secret).join(REDACTED) : value;
  }

  /** A copy of a JSON-like value (parsed body, headers) with the secret replaced in every string. */
  deep<T>(value: T, depth = 0): T {
    if (typeof value === 'string') return this.text(value) as T;
    // Parsed JSON is a tree; the depth bound only guards against pathological nesting.
    if (value === null || typeof value !== 'object' || depth > 32) return value;
    if (Array.isArray(value)) return value.map((item) => this.deep(item, depth + 1)) as T;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      copy[this.text(key)] = this.deep(item, depth + 1);
    return copy as T;
  }

  /**
   * A plain Error standing in for a foreign error: same name, code and (redacted) message and
   * stack, but none of its other fields, which may hold request options.
   */
  error(value: unknown): Error {
    if (!(value instanceof Error)) {
      return new RedactedError({ name: 'Error', message: this.text(String(value)) });
    }
    return new RedactedError({
      name: value.name,
      message: this.text(value.message),
      stack: this.text(value.stack ?? `${value.name}: ${value.message}`),
      code: (value as { code?: unknown }).code,
    });
  }
}
