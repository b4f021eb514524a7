/**
 * Request validation with FastAPI-shaped 422s: `{"detail": [{loc, msg, type, input?}]}`. The
 * platform's errors look like FastAPI's (docs/platform-contract.md, "Behaviour"), so the messages and types follow pydantic v2.
 */
import type { z } from 'zod';
import type { ValidationIssue } from '../../src/contract/schemas.ts';
import { EmulatorValidationError } from './errors.ts';

/** Page-based pagination (tickets, messages, requests). */
export interface PageQuery {
  page: number;
  pageSize: number;
}

/** Offset-based pagination (employees, assets, applications, catalog items, activity). */
export interface OffsetQuery {
  limit: number;
  offset: number;
}

/** Default `page_size` and `limit` (contract). */
export const DEFAULT_PAGE_SIZE = 25;
/** Largest `page_size` and `limit` (contract). */
export const MAX_PAGE_SIZE = 100;

/** One 422 entry. `input` is left out when there was none (a missing field). */
export function issue(
  loc: ValidationIssue['loc'],
  msg: string,
  type: string,
  input?: unknown,
): ValidationIssue {
  return input === undefined ? { loc, msg, type } : { loc, msg, type, input };
}

const INTEGER = /^[+-]?\d+$/;
const TRUE_WORDS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/** Pydantic's wording of an enum error: 'a', 'b' or 'c'. */
export function enumMessage(values: readonly string[]): string {
  const quoted = values.map((value) => `'${value}'`);
  const last = quoted.pop();
  return `Input should be ${quoted.length > 0 ? `${quoted.join(', ')} or ${last}` : last}`;
}

/**
 * Reads query parameters, collecting every problem before failing, as FastAPI reports all of
 * them at once. A repeated parameter counts by its last value, as FastAPI does for scalars.
 */
export class QueryReader {
  readonly #params: URLSearchParams;
  readonly #issues: ValidationIssue[] = [];

  constructor(params: URLSearchParams) {
    this.#params = params;
  }

  #raw(name: string): string | undefined {
    const all = this.#params.getAll(name);
    return all.length === 0 ? undefined : all[all.length - 1];
  }

  /** An integer in [min, max], or the default when absent. */
  int(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.#raw(name);
    if (raw === undefined) return fallback;
    const loc = ['query', name];
    if (!INTEGER.test(raw)) {
      this.#issues.push(
        issue(
          loc,
          'Input should be a valid integer, unable to parse string as an integer',
          'int_parsing',
          raw,
        ),
      );
      return fallback;
    }
    const value = Number(raw);
    if (value < min) {
      this.#issues.push(
        issue(loc, `Input should be greater than or equal to ${min}`, 'greater_than_equal', raw),
      );
      return fallback;
    }
    if (value > max) {
      this.#issues.push(
        issue(loc, `Input should be less than or equal to ${max}`, 'less_than_equal', raw),
      );
      return fallback;
    }
    return value;
  }

  /** A boolean in pydantic's spellings (true/false, 1/0, yes/no, on/off, t/f, y/n). */
  bool(name: string, fallback: boolean): boolean {
    const raw = this.#raw(name);
    if (raw === undefined) return fallback;
    const word = raw.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    this.#issues.push(
      issue(
        ['query', name],
        'Input should be a valid boolean, unable to interpret input',
        'bool_parsing',
        raw,
      ),
    );
    return fallback;
  }

  /** An ISO 8601 date or date-time as epoch milliseconds, or undefined when absent. */
  dateTime(name: string): number | undefined {
    const raw = this.#raw(name);
    if (raw === undefined) return undefined;
    const ms = parseIsoDateTime(raw);
    if (ms === undefined) {
      this.#issues.push(
        issue(['query', name], 'Input should be a valid datetime', 'datetime_parsing', raw),
      );
    }
    return ms;
  }

  /** One of the allowed values, or undefined when absent. */
  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const raw = this.#raw(name);
    if (raw === undefined) return undefined;
    const found = values.find((value) => value === raw);
    if (found === undefined)
      this.#issues.push(issue(['query', name], enumMessage(values), 'enum', raw));
    return found;
  }

  /** Several of the allowed values, comma-separated; undefined when absent. */
  oneOfList<T extends string>(name: string, values: readonly T[]): T[] | undefined {
    const raw = this.#raw(name);
    if (raw === undefined) return undefined;
    const found: T[] = [];
    for (const part of raw.split(',').map((p) => p.trim())) {
      const value = values.find((v) => v === part);
      if (value === undefined) {
        this.#issues.push(issue(['query', name], enumMessage(values), 'enum', part));
      } else {
        found.push(value);
      }
    }
    return found;
  }

  /** A free string, or undefined when absent. */
  text(name: string): string | undefined {
    return this.#raw(name);
  }

  /** `page` (from 1) and `page_size` (1 to 100, default 25). */
  page(): PageQuery {
    return {
      page: this.int('page', 1, 1),
      pageSize: this.int('page_size', DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
    };
  }

  /** `limit` (1 to 100, default 25) and `offset` (from 0). */
  offset(): OffsetQuery {
    return {
      limit: this.int('limit', DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
      offset: this.int('offset', 0, 0),
    };
  }

  /** Throws the collected problems as one 422; call after reading every parameter. */
  done(): void {
    if (this.#issues.length > 0) throw new EmulatorValidationError(this.#issues);
  }
}

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * Parses an ISO 8601 date (`2024-05-01`) or date-time (`2024-05-01T10:00:00Z`, with an offset,
 * or naive), returning epoch ms or undefined. Naive values count as UTC: the platform's own
 * timestamps are all UTC. Impossible dates (Feb 30) are refused rather than rolled over.
 */
export function parseIsoDateTime(raw: string): number | undefined {
  const match = ISO_DATE_TIME.exec(raw);
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone = 'Z'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  if (new Date(utc).getUTCDate() !== day) return undefined;
  return utc - zoneOffsetMs(zone);
}

function zoneOffsetMs(zone: string): number {
  if (zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  return sign * (hours * 60 + minutes) * 60_000;
}

/**
 * Parses a request body as JSON. An empty body is a missing body; anything that is not JSON is
 * `json_invalid`; both at `loc ["body"]`.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '')
    throw new EmulatorValidationError([issue(['body'], 'Field required', 'missing')]);
  try {
    return JSON.parse(text);
  } catch {
    throw new EmulatorValidationError([issue(['body'], 'JSON decode error', 'json_invalid')]);
  }
}

/** Validates a body with a zod schema, turning zod issues into FastAPI ones under `body`. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return result.data;
  throw new EmulatorValidationError(result.error.issues.map(fromZodIssue));
}

/** Pydantic's type and message for one zod issue. */
export function fromZodIssue(zodIssue: z.core.$ZodIssue): ValidationIssue {
  const loc = [
    'body',
    ...zodIssue.path.map((part) => (typeof part === 'number' ? part : String(part))),
  ];
  const input = 'input' in zodIssue ? zodIssue.input : undefined;
  switch (zodIssue.code) {
    case 'invalid_type':
      // JSON has no undefined, so an undefined input means the field was absent: "missing".
      if (input === undefined) return issue(loc, 'Field required', 'missing');
      return typeIssue(loc, zodIssue.expected, input, zodIssue.path.length === 0);
    case 'invalid_value':
      return issue(loc, enumMessage(zodIssue.values.map(String)), 'enum', input);
    case 'too_small':
      if (zodIssue.origin === 'string') {
        const n = Number(zodIssue.minimum);
        return issue(
          loc,
          `String should have at least ${n} character${n === 1 ? '' : 's'}`,
          'string_too_short',
          input,
        );
      }
      return issue(loc, zodIssue.message, 'too_short', input);
    case 'too_big':
      if (zodIssue.origin === 'string') {
        const n = Number(zodIssue.maximum);
        return issue(
          loc,
          `String should have at most ${n} character${n === 1 ? '' : 's'}`,
          'string_too_long',
          input,
        );
      }
      return issue(loc, zodIssue.message, 'too_long', input);
    default:
      return issue(loc, `Value error, ${zodIssue.message}`, 'value_error', input);
  }
}

function typeIssue(
  loc: ValidationIssue['loc'],
  expected: string,
  input: unknown,
  isRoot: boolean,
): ValidationIssue {
  if (isRoot) {
    return issue(
      loc,
      'Input should be a valid dictionary or object to extract fields from',
      'model_attributes_type',
      input,
    );
  }
  switch (expected) {
    case 'string':
      return issue(loc, 'Input should be a valid string', 'string_type', input);
    case 'boolean':
      return issue(loc, 'Input should be a valid boolean', 'bool_type', input);
    case 'record':
    case 'object':
      return issue(loc, 'Input should be a valid dictionary', 'dict_type', input);
    default:
      return issue(loc, `Input should be a valid ${expected}`, `${expected}_type`, input);
  }
}
