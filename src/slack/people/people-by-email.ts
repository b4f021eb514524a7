/**
 * Slack people found by the email the platform names them by (a ticket's assignee, a change's
 * actor), so what the app shows names a person, not an address. Cached for an hour: names change
 * rarely and a handful of agents are most of the lookups.
 */
import type { WebClient } from '@slack/web-api';
import type { ShownPerson } from '../builders/person-text.ts';
import { slackErrorOf } from '../errors.ts';

// Slack's answers for an email no Slack user has: unknown for the hour.
const UNKNOWN_PERSON = new Set(['users_not_found', 'user_not_found', 'user_disabled']);
const NAME_TTL_MS = 60 * 60_000;
const NAMES_KEPT = 500;

/** Finds Slack people by email; never fails (an unknown or unreachable person is undefined). */
export class PeopleByEmail {
  readonly #client: Pick<WebClient, 'users'>;
  readonly #now: () => number;
  readonly #names = new Map<string, { at: number; person: Promise<ShownPerson | undefined> }>();

  constructor(options: { client: Pick<WebClient, 'users'>; now?: () => number }) {
    this.#client = options.client;
    this.#now = options.now ?? Date.now;
  }

  /** The Slack user with this email (id and name), or undefined when Slack does not say. */
  person(email: string): Promise<ShownPerson | undefined> {
    const key = email.trim().toLowerCase();
    const cached = this.#names.get(key);
    if (cached && this.#now() - cached.at < NAME_TTL_MS) return cached.person;
    const person = this.#client.users.lookupByEmail({ email: key }).then(
      ({ user }): ShownPerson => ({
        userId: user?.id,
        name: user?.real_name || user?.profile?.real_name || undefined,
      }),
      (error: unknown) => {
        // Someone Slack does not know stays unknown for the hour; any other failure is asked
        // again next time, and this answer goes without the name rather than wait.
        const code = slackErrorOf(error);
        if (!code || !UNKNOWN_PERSON.has(code)) this.#names.delete(key);
        return undefined;
      },
    );
    this.#names.delete(key);
    this.#names.set(key, { at: this.#now(), person });
    if (this.#names.size > NAMES_KEPT) {
      const oldest = this.#names.keys().next().value;
      if (oldest !== undefined) this.#names.delete(oldest);
    }
    return person;
  }
}

/** What finds a Slack person by email: `PeopleByEmail`, or the people directory's `byEmail`. */
export type FindByEmail = (email: string) => Promise<ShownPerson | undefined>;

/** The ticket's assignee as Slack knows them, for its card; undefined when it has none. */
export async function shownAssignee(
  find: FindByEmail | undefined,
  ticket: { assignee_email?: string | null | undefined },
): Promise<ShownPerson | undefined> {
  const email = ticket.assignee_email;
  return email && find ? find(email) : undefined;
}
