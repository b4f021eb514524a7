/**
 * The platform's own AI agent, simulated. A while after a new ticket or a new requester
 * message it reads the ticket, files it under a desk, raises the priority when the words call
 * for it, answers from the knowledge base with sources, and either resolves the request itself
 * (when an article settles it) or hands it to the desk's human team.
 *
 * It stays out of a conversation once a human owns it (the ticket is assigned, or the agent
 * handed it off), and never answers internal notes, agents, the system or itself.
 */
import type { Message, Ticket, TicketPriority } from '../../src/contract/schemas.ts';
import { EmulatorError } from './errors.ts';
import { AI_ACTOR, type EmulatorModel, type KnowledgeArticle, type ModelEvent } from './model.ts';
import type { Cancel, Scheduler } from './scheduler.ts';

/** What the AI agent needs. */
export interface AiAgentOptions {
  model: EmulatorModel;
  scheduler: Scheduler;
  /** How long after a trigger the agent acts (the platform is not instant). */
  delayMs: number;
  /** Where an unexpected failure of a scheduled run goes; a timer must never throw. */
  onError?: (error: unknown) => void;
}

/** Team used when no desk routing names one. */
export const FALLBACK_TEAM = 'Service Desk';

type Outcome = 'resolved' | 'handed_off';

// Words that make a request urgent or important; the agent only ever raises a priority.
const PRIORITY_WORDS: ReadonlyArray<{ priority: TicketPriority; words: readonly string[] }> = [
  {
    priority: 'urgent',
    words: ['outage', 'security incident', 'phishing', 'breach', 'everyone is down'],
  },
  {
    priority: 'high',
    words: ['urgent', 'asap', 'blocked', "can't work", 'cannot work', 'down', 'not working'],
  },
];
const PRIORITY_RANK: Readonly<Record<TicketPriority, number>> = {
  low: 0,
  medium: 1,
  high: 2,
  urgent: 3,
};

/** The simulated AI agent; subscribes to the model until `stop()`. */
export class AiAgent {
  readonly #model: EmulatorModel;
  readonly #scheduler: Scheduler;
  readonly #delayMs: number;
  readonly #onError: (error: unknown) => void;
  readonly #pending = new Map<string, Cancel>();
  readonly #outcomes = new Map<string, Outcome>();
  readonly #unsubscribe: () => void;

  constructor(options: AiAgentOptions) {
    this.#model = options.model;
    this.#scheduler = options.scheduler;
    this.#delayMs = options.delayMs;
    this.#onError =
      options.onError ?? ((error) => console.error('emulator AI agent failed:', error));
    this.#unsubscribe = this.#model.onEvent((event) => this.#observe(event));
  }

  /** Number of tickets the agent will look at once its delay is over. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Cancels every pending run and stops listening. */
  stop(): void {
    this.#unsubscribe();
    for (const cancel of this.#pending.values()) cancel();
    this.#pending.clear();
  }

  #observe(event: ModelEvent): void {
    // Status and desk changes are the agent's own or a human's: nothing to answer.
    if (event.type === 'ticket_updated') return;
    if (event.type === 'ticket_created' || isRequesterMessage(event.message)) {
      this.#schedule(event.tenant, event.ticketId);
    }
  }

  // One pending run per ticket: a burst of messages is read once, in its latest state.
  #schedule(tenant: string, ticketId: string): void {
    const key = `${tenant}/${ticketId}`;
    if (this.#pending.has(key)) return;
    const cancel = this.#scheduler.schedule(this.#delayMs, () => {
      this.#pending.delete(key);
      try {
        this.#handle(tenant, ticketId, key);
      } catch (error) {
        // A closed ticket or a vanished tenant is an expected race, not a failure.
        if (!(error instanceof EmulatorError)) this.#onError(error);
      }
    });
    this.#pending.set(key, cancel);
  }

  #handle(tenant: string, ticketId: string, key: string): void {
    const ticket = this.#model.findTicket(tenant, ticketId);
    // Resolved by someone else while this run waited: a requester's message would have reopened
    // it first, so there is nothing left to answer.
    if (
      !ticket ||
      ticket.status === 'closed' ||
      ticket.status === 'resolved' ||
      ticket.assignee_email
    ) {
      return;
    }
    const outcome = this.#outcomes.get(key);
    if (outcome === 'handed_off') return;
    // Asked for a human: the agent hands over with the context and does not answer again.
    // A new ticket is read whole; later, only the requester's last words count.
    const text = this.#ticketText(tenant, ticket);
    if (asksForPerson(outcome ? this.#lastRequesterWords(tenant, ticket) : text)) {
      const current = outcome ? ticket : this.#classify(tenant, ticket, text);
      this.#handOff(tenant, current, key, undefined);
      return;
    }
    if (outcome === 'resolved') {
      // The requester came back after an automatic answer: a thank-you closes the loop again,
      // anything else means the answer was not enough.
      if (saysThanks(this.#lastRequesterWords(tenant, ticket))) this.#closeLoop(tenant, ticket);
      else this.#handOff(tenant, ticket, key, undefined, 'Sorry that did not solve it.');
      return;
    }
    const classified = this.#classify(tenant, ticket, text);
    const article = bestArticle(this.#model.knowledgeBase(tenant), text);
    if (article?.resolves) this.#resolve(tenant, classified, key, article);
    else this.#handOff(tenant, classified, key, article);
  }

  #lastRequesterWords(tenant: string, ticket: Ticket): string {
    const said = this.#model.listMessages(tenant, ticket.id).filter(isRequesterMessage);
    return said[said.length - 1]?.body ?? '';
  }

  #closeLoop(tenant: string, ticket: Ticket): void {
    this.#model.addAiMessage(
      tenant,
      ticket.id,
      "Glad that helped! I've marked this request resolved again.",
      [],
    );
    this.#model.updateTicket(tenant, ticket.id, { status: 'resolved' }, AI_ACTOR);
  }

  #ticketText(tenant: string, ticket: Ticket): string {
    const said = this.#model
      .listMessages(tenant, ticket.id)
      .filter(isRequesterMessage)
      .map((message) => message.body);
    return [ticket.title, ticket.description ?? '', ...said].join('\n').toLowerCase();
  }

  // Files the ticket under a desk when it has none, and raises its priority when warranted.
  #classify(tenant: string, ticket: Ticket, text: string): Ticket {
    let current = ticket;
    if (!current.desk_id) {
      const routing = this.#model
        .routing(tenant)
        .find((route) => route.keywords.some((word) => mentions(text, word)));
      if (routing) current = this.#model.setDesk(tenant, current.id, routing.desk);
    }
    const wanted = PRIORITY_WORDS.find((level) => level.words.some((word) => mentions(text, word)));
    const priority = current.priority as TicketPriority;
    if (wanted && PRIORITY_RANK[wanted.priority] > (PRIORITY_RANK[priority] ?? 0)) {
      current = this.#model.updateTicket(
        tenant,
        current.id,
        { priority: wanted.priority },
        AI_ACTOR,
      );
    }
    return current;
  }

  #resolve(tenant: string, ticket: Ticket, key: string, article: KnowledgeArticle): void {
    const body = `${article.answer}\n\nI've marked this request resolved. Reply here if you still need help.`;
    this.#model.addAiMessage(tenant, ticket.id, body, [source(article)]);
    this.#model.updateTicket(tenant, ticket.id, { status: 'resolved' }, AI_ACTOR);
    this.#model.recordConversation(
      tenant,
      ticket.id,
      'resolved',
      `Answered with "${article.title}"`,
    );
    this.#outcomes.set(key, 'resolved');
  }

  #handOff(
    tenant: string,
    ticket: Ticket,
    key: string,
    article: KnowledgeArticle | undefined,
    opening = '',
  ): void {
    const team =
      this.#model.routing(tenant).find((route) => route.desk === ticket.desk_id)?.team ??
      FALLBACK_TEAM;
    const parts = [
      opening,
      article?.answer ?? '',
      `I've passed this to the ${team} team; someone will follow up here.`,
    ];
    const body = parts.filter((part) => part !== '').join('\n\n');
    this.#model.addAiMessage(tenant, ticket.id, body, article ? [source(article)] : []);
    this.#model.updateTicket(tenant, ticket.id, { team, status: 'in_progress' }, AI_ACTOR);
    this.#model.recordConversation(tenant, ticket.id, 'handed_off', `Handed to ${team}`);
    this.#outcomes.set(key, 'handed_off');
  }
}

function isRequesterMessage(message: Message): boolean {
  return message.author.type === 'requester' && !message.internal;
}

const THANKS = /^\s*(thanks|thank you|thx|cheers|perfect|great|that worked|it worked|solved)\b/i;

const STILL_BROKEN = /\b(but|still|not|no longer|doesn't|didn't|won't|can't)\b/i;

// "Thanks!" closes the loop; "thanks, but it still fails" does not.
function saysThanks(text: string): boolean {
  return THANKS.test(text) && !STILL_BROKEN.test(text);
}

const PERSON_WANTED =
  /\b(talk|speak|chat) to (a |an |)(person|human|real person|agent|someone)\b|\b(human|real person) please\b/i;

// "I'd like to talk to a person" (the Slack app's button sends such a message) asks for a hand-off.
function asksForPerson(text: string): boolean {
  return PERSON_WANTED.test(text);
}

// Whole words only: "down" must not match "download".
function mentions(text: string, phrase: string): boolean {
  const escaped = phrase.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^a-z0-9])${escaped}($|[^a-z0-9])`).test(text);
}

// The article whose keywords the text mentions most; the first one wins a tie.
function bestArticle(
  articles: readonly KnowledgeArticle[],
  text: string,
): KnowledgeArticle | undefined {
  let best: KnowledgeArticle | undefined;
  let bestScore = 0;
  for (const article of articles) {
    const score = article.keywords.filter((word) => mentions(text, word)).length;
    if (score > bestScore) {
      best = article;
      bestScore = score;
    }
  }
  return best;
}

function source(article: KnowledgeArticle): { title: string; url: string } {
  return { title: article.title, url: article.url };
}
