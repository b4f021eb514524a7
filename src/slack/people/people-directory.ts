/**
 * Who a Slack person is to the platform: their email (the platform matches people by email)
 * and whether they count as an agent. Answers are cached briefly per process, because every
 * command would otherwise cost a users.info call against Slack's own rate limits.
 */
import type { WebClient } from '@slack/web-api';
import type { ShownPerson } from '../builders/person-text.ts';
import type { AgentScope, Directory, Person, TriageMembers } from '../deps.ts';
import { PersonWithoutEmailError } from '../errors.ts';
import { PeopleByEmail } from './people-by-email.ts';

/** A Slack person as the app needs them. */
export type { Person };

/** Options of the directory. */
export interface PeopleDirectoryOptions {
  client: WebClient;
  agentEmails: ReadonlySet<string>;
  agentUsergroup?: string | undefined;
  /** Members of private triage channels, agents of their desk's tickets (none when unset). */
  deskAgents?: Pick<TriageMembers, 'isDeskAgent'> | undefined;
  ttlMs?: number;
  now?: () => number;
}

/** Looks people up in Slack and tells agents from everyone else. */
export class PeopleDirectory implements Directory {
  readonly #client: WebClient;
  readonly #agentEmails: ReadonlySet<string>;
  readonly #agentUsergroup: string | undefined;
  readonly #deskAgents: PeopleDirectoryOptions['deskAgents'];
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #people = new Map<string, { at: number; person: Promise<Person> }>();
  #group: { at: number; members: Promise<ReadonlySet<string>> } | undefined;
  readonly #byEmail: PeopleByEmail;

  constructor(options: PeopleDirectoryOptions) {
    this.#client = options.client;
    this.#byEmail = new PeopleByEmail({
      client: options.client,
      ...(options.now ? { now: options.now } : {}),
    });
    this.#agentEmails = options.agentEmails;
    this.#agentUsergroup = options.agentUsergroup;
    this.#deskAgents = options.deskAgents;
    this.#ttlMs = options.ttlMs ?? 5 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** The person behind a Slack user id. */
  person(userId: string): Promise<Person> {
    const cached = this.#people.get(userId);
    if (cached && this.#now() - cached.at < this.#ttlMs) return cached.person;
    const person = this.#fetch(userId);
    this.#people.set(userId, { at: this.#now(), person });
    // A failed lookup must not be cached: the next call tries again.
    person.catch(() => this.#people.delete(userId));
    return person;
  }

  /** The Slack user with this email (a ticket's assignee), never failing: undefined if unknown. */
  byEmail(email: string): Promise<ShownPerson | undefined> {
    return this.#byEmail.person(email);
  }

  /** The person's email, or PersonWithoutEmailError: the platform cannot match them without it. */
  async email(userId: string): Promise<string> {
    const { email } = await this.person(userId);
    if (!email) throw new PersonWithoutEmailError(userId);
    return email;
  }

  /**
   * Whether the person is an agent: listed in AGENT_EMAILS or a member of the agents group, or
   * on a ticket (`on`) a member of a private triage channel of its desk.
   */
  async isAgent(userId: string, on?: AgentScope): Promise<boolean> {
    const person = await this.person(userId);
    if (person.email && this.#agentEmails.has(person.email.toLowerCase())) return true;
    if (this.#agentUsergroup && (await this.#groupMembers()).has(userId)) return true;
    return on !== undefined && this.#deskAgents !== undefined
      ? this.#deskAgents.isDeskAgent(userId, on)
      : false;
  }

  async #fetch(userId: string): Promise<Person> {
    const { user } = await this.#client.users.info({ user: userId });
    const email = user?.profile?.email?.trim();
    // A profile field Slack returns that the client's types do not list yet.
    const pronouns = (user?.profile as { pronouns?: unknown } | undefined)?.pronouns;
    return {
      id: userId,
      name:
        user?.real_name ||
        user?.profile?.real_name ||
        user?.profile?.display_name ||
        user?.name ||
        userId,
      email: email ? email.toLowerCase() : undefined,
      isBot: Boolean(user?.is_bot),
      ...(typeof pronouns === 'string' && pronouns.trim() ? { pronouns: pronouns.trim() } : {}),
    };
  }

  #groupMembers(): Promise<ReadonlySet<string>> {
    if (this.#group && this.#now() - this.#group.at < this.#ttlMs) return this.#group.members;
    const usergroup = this.#agentUsergroup as string;
    const members = this.#client.usergroups.users
      .list({ usergroup })
      .then((r) => new Set(r.users ?? []) as ReadonlySet<string>);
    this.#group = { at: this.#now(), members };
    members.catch(() => {
      this.#group = undefined;
    });
    return members;
  }
}
