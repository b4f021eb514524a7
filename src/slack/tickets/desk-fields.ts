/**
 * The desks' custom field definitions, kept per desk: the create form shows the chosen desk's
 * fields, and it must open within Slack's 3-second trigger window and swap fields at once when
 * the desk changes. A desk's definitions are asked for at most once per `ttlMs`; past that the
 * kept copy is still given while a fresh one loads behind it, so a form never waits on the
 * platform for a desk it has seen before.
 */
import {
  type CustomField,
  isServiceDeskError,
  NotFoundError,
  type ServiceDeskClient,
} from '../../servicedesk/index.ts';
import type { DeskFields, Payer, PeopleRequest, SlackDeps } from '../deps.ts';
import { FairShareSpentError } from '../errors.ts';

/** How long a desk's definitions count as fresh, and the least time between two requests. */
export const DESK_FIELDS_TTL_MS = 10 * 60_000;
/** After a failed request, how long before the desk is asked again (the kept copy serves). */
export const DESK_FIELDS_RETRY_MS = 60_000;
// The contract's largest page: a desk's form never has more fields than one page holds.
const PAGE_LIMIT = 100;

interface DeskEntry {
  /** The last definitions read. */
  kept?: CustomField[];
  /** When the desk may be asked again. */
  nextRequestAt: number;
  /** The last request's failure, given to callers with nothing kept until the next request. */
  failure?: unknown;
  pending?: Promise<CustomField[]>;
}

/** What the definitions are read with. */
export interface DeskFieldsOptions {
  client: Pick<ServiceDeskClient, 'listCustomFields'>;
  /** Told about a refresh that failed behind a kept copy (nobody awaits it). */
  onRefreshError?: (error: unknown, deskSlug: string) => void;
  ttlMs?: number;
  retryMs?: number;
  now?: () => number;
}

/** Cached List custom fields, per desk. */
export class DeskFieldCatalog implements DeskFields {
  readonly #client: Pick<ServiceDeskClient, 'listCustomFields'>;
  readonly #onRefreshError: (error: unknown, deskSlug: string) => void;
  readonly #ttlMs: number;
  readonly #retryMs: number;
  readonly #now: () => number;
  readonly #desks = new Map<string, DeskEntry>();

  constructor(options: DeskFieldsOptions) {
    this.#client = options.client;
    this.#onRefreshError = options.onRefreshError ?? (() => {});
    this.#ttlMs = options.ttlMs ?? DESK_FIELDS_TTL_MS;
    this.#retryMs = options.retryMs ?? DESK_FIELDS_RETRY_MS;
    this.#now = options.now ?? Date.now;
  }

  /** The desk's kept definitions, fresh or stale, without waiting; a stale copy is refreshed. */
  peek(deskSlug: string): CustomField[] | undefined {
    const entry = this.#desks.get(deskSlug);
    if (!entry?.kept) return undefined;
    if (this.#mayRequest(entry)) this.#refreshBehind(deskSlug, entry);
    return entry.kept;
  }

  /**
   * The desk's definitions: a kept copy at once (refreshed behind it when stale), else one
   * request shared by every caller. A platform without the endpoint (404) has no desk fields.
   * `pay` is called by the caller that starts the request, before it, and may refuse it.
   */
  async get(deskSlug: string, pay?: Payer): Promise<CustomField[]> {
    for (let attempt = 1; ; attempt++) {
      const entry = this.#entry(deskSlug);
      if (entry.kept) {
        if (this.#mayRequest(entry)) this.#refreshBehind(deskSlug, entry);
        return entry.kept;
      }
      const joined = entry.pending !== undefined;
      if (!joined && !this.#mayRequest(entry)) throw entry.failure;
      const pending = entry.pending ?? this.#request(deskSlug, entry, pay);
      try {
        return await pending;
      } catch (error) {
        // A request another person started and could not pay for: this one starts its own.
        if (joined && error instanceof FairShareSpentError && attempt < 3) continue;
        throw error;
      }
    }
  }

  #entry(deskSlug: string): DeskEntry {
    let entry = this.#desks.get(deskSlug);
    if (!entry) {
      entry = { nextRequestAt: 0 };
      this.#desks.set(deskSlug, entry);
    }
    return entry;
  }

  #mayRequest(entry: DeskEntry): boolean {
    return entry.pending === undefined && this.#now() >= entry.nextRequestAt;
  }

  #refreshBehind(deskSlug: string, entry: DeskEntry): void {
    this.#request(deskSlug, entry).catch((error: unknown) => this.#onRefreshError(error, deskSlug));
  }

  #request(deskSlug: string, entry: DeskEntry, pay?: Payer): Promise<CustomField[]> {
    const startedAt = this.#now();
    entry.nextRequestAt = startedAt + this.#ttlMs;
    const call = () =>
      this.#client.listCustomFields(
        { desk_id: deskSlug, limit: PAGE_LIMIT },
        { priority: 'interactive' },
      );
    // Without a payer the request goes at once, as a refresh behind a kept copy does.
    const pending = (pay ? pay().then(call) : call())
      .then(
        (page) => page.items.filter((field) => !field.desk_id || field.desk_id === deskSlug),
        (error: unknown) => {
          // A platform without custom fields answers 404: its desks have no fields to show.
          if (error instanceof NotFoundError) return [];
          throw error;
        },
      )
      .then(
        (fields) => {
          entry.kept = fields;
          entry.failure = undefined;
          return fields;
        },
        (error: unknown) => {
          // Only the platform's failures are waited out; a person's spent share is theirs, and
          // anything else is a bug, and rethrown.
          if (!isServiceDeskError(error)) entry.nextRequestAt = 0;
          else entry.nextRequestAt = startedAt + this.#retryMs;
          entry.failure = error;
          throw error;
        },
      )
      .finally(() => {
        entry.pending = undefined;
      });
    entry.pending = pending;
    return pending;
  }
}

/**
 * A desk's fields for a form or a card; none when no desk is given, the app has no definitions
 * (`deskFields` absent), or they cannot be read (said in the log: the form still files, and the
 * platform names a missing required field on submission).
 */
export async function deskFieldsOf(
  deps: Pick<SlackDeps, 'logger'> & Partial<Pick<SlackDeps, 'deskFields'>>,
  deskSlug: string | null | undefined,
): Promise<CustomField[]> {
  if (!deskSlug || !deps.deskFields) return [];
  try {
    return await deps.deskFields.get(deskSlug);
  } catch (error) {
    deps.logger.warn({ err: error, desk: deskSlug }, 'desk fields could not be loaded');
    return [];
  }
}

/** A person's action that reads: who pays the read from their fair share, and what it is for. */
export interface PaidBy {
  userId: string;
  request: PeopleRequest;
}

/**
 * A desk's fields for a person's action: the kept copy without asking, else one read paid from
 * the person's fair share (`reads.payer`). Their share spent, none, and when it is back: the
 * form still files, and the platform names a required field it lacks on submission.
 */
export async function deskFieldsFor(
  deps: Pick<SlackDeps, 'logger' | 'reads'> & Partial<Pick<SlackDeps, 'deskFields'>>,
  paidBy: PaidBy,
  deskSlug: string | null | undefined,
): Promise<{ fields: CustomField[]; refused?: { retryAt: number } }> {
  if (!deskSlug || !deps.deskFields) return { fields: [] };
  try {
    return {
      fields: await deps.deskFields.get(deskSlug, deps.reads.payer(paidBy.userId, paidBy.request)),
    };
  } catch (error) {
    if (error instanceof FairShareSpentError) {
      deps.logger.debug(
        { user: paidBy.userId, desk: deskSlug },
        'desk fields not read: the person’s fair share is spent',
      );
      return { fields: [], refused: { retryAt: error.retryAt } };
    }
    deps.logger.warn({ err: error, desk: deskSlug }, 'desk fields could not be loaded');
    return { fields: [] };
  }
}
