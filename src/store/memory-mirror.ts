/** The mirror's per-ticket memory held in this process: the twin of `redis-mirror.ts`. */
import { randomUUID } from 'node:crypto';
import { requireDuration, requireKey, requireTime } from './argument-checks.ts';
import { emptyMirrorRecord } from './mirror-record.ts';
import { OWN_MESSAGES_TTL_MS } from './mirror-retention.ts';
import type { HintScope, MirrorRecord, MirrorStore, Now, PostClaimOutcome } from './types.ts';

type Post =
  | { state: 'done' }
  | { state: 'retry' }
  | { state: 'leased'; token: string; expiresAt: number };

interface TicketMemory {
  state: MirrorRecord | undefined;
  slackWriteAt: number;
  hintedAt: number;
  messageHintedAt: number;
  announcedAt: number;
  posts: Map<string, Post>;
  own: Map<string, number>;
  /** When everything kept for the ticket lapses (set by `forget`). */
  expiresAt: number | undefined;
}

/** Per-ticket records in a Map; each method runs to completion, so each is atomic. */
export class MemoryMirrorStore implements MirrorStore {
  readonly #now: Now;
  readonly #tickets = new Map<string, TicketMemory>();

  constructor(now: Now) {
    this.#now = now;
  }

  async state(ticketId: string): Promise<MirrorRecord | undefined> {
    const memory = this.#live(ticketId);
    const noted =
      memory &&
      memory.slackWriteAt + memory.hintedAt + memory.messageHintedAt + memory.announcedAt > 0;
    if (!memory || (!memory.state && !noted)) return undefined;
    const base = memory.state ?? emptyMirrorRecord();
    return {
      ...base,
      slackWriteAt: memory.slackWriteAt,
      hintedAt: memory.hintedAt,
      messageHintedAt: memory.messageHintedAt,
      announcedAt: memory.announcedAt,
    };
  }

  async saveState(ticketId: string, state: MirrorRecord): Promise<void> {
    const memory = this.#memory(ticketId);
    const current = memory.state;
    memory.state = {
      activityCursor: Math.max(current?.activityCursor ?? 0, state.activityCursor),
      messageCursor: Math.max(current?.messageCursor ?? 0, state.messageCursor),
      messagesAnnounced: Math.max(current?.messagesAnnounced ?? 0, state.messagesAnnounced),
      lastActivityAt: Math.max(current?.lastActivityAt ?? 0, state.lastActivityAt),
      lastAnswerAt: Math.max(current?.lastAnswerAt ?? 0, state.lastAnswerAt),
      lastPolledAt: Math.max(current?.lastPolledAt ?? 0, state.lastPolledAt),
      firstResponseAt: Math.max(current?.firstResponseAt ?? 0, state.firstResponseAt),
      backoffStep: state.backoffStep,
      status: state.status,
      settledAt: state.settledAt,
      requesterEmail: state.requesterEmail,
      ticket: state.ticket,
      slackWriteAt: 0,
      hintedAt: 0,
      messageHintedAt: 0,
      announcedAt: 0,
    };
  }

  async noteHint(ticketId: string, atMs: number, scope: HintScope = 'change'): Promise<void> {
    const at = requireTime(Math.floor(atMs), 'atMs');
    const memory = this.#memory(ticketId);
    if (scope === 'message') memory.messageHintedAt = Math.max(memory.messageHintedAt, at);
    else memory.hintedAt = Math.max(memory.hintedAt, at);
    if (scope === 'announced') memory.announcedAt = Math.max(memory.announcedAt, at);
  }

  async keepTicket(ticketId: string, ticket: string): Promise<void> {
    requireKey(ticketId, 'ticket ID');
    const memory = this.#memory(ticketId);
    if (memory.state) memory.state.ticket = ticket;
    else memory.state = { ...emptyMirrorRecord(), ticket };
  }

  async noteSlackWrite(ticketId: string, atMs: number): Promise<void> {
    const at = requireTime(Math.floor(atMs), 'atMs');
    const memory = this.#memory(ticketId);
    memory.slackWriteAt = Math.max(memory.slackWriteAt, at);
  }

  async claimPost(ticketId: string, postKey: string, leaseMs: number): Promise<PostClaimOutcome> {
    requireKey(postKey, 'post key');
    requireDuration(leaseMs, 'leaseMs');
    const memory = this.#memory(ticketId);
    const now = this.#now();
    const current = memory.posts.get(postKey);
    if (current?.state === 'done') return { state: 'done' };
    if (current?.state === 'leased' && current.expiresAt > now) return { state: 'busy' };
    const token = randomUUID();
    memory.posts.set(postKey, { state: 'leased', token, expiresAt: now + leaseMs });
    return { state: 'claimed', token, retaken: current !== undefined };
  }

  async completePost(ticketId: string, postKey: string, token: string): Promise<boolean> {
    const memory = this.#memory(ticketId);
    const current = memory.posts.get(postKey);
    if (current?.state !== 'leased' || current.token !== token) return false;
    memory.posts.set(postKey, { state: 'done' });
    return true;
  }

  async releasePost(ticketId: string, postKey: string, token: string): Promise<boolean> {
    const memory = this.#memory(ticketId);
    const current = memory.posts.get(postKey);
    if (current?.state !== 'leased' || current.token !== token) return false;
    memory.posts.set(postKey, { state: 'retry' });
    return true;
  }

  async rememberOwn(ticketId: string, marks: readonly string[]): Promise<void> {
    const memory = this.#memory(ticketId);
    const expiresAt = this.#now() + OWN_MESSAGES_TTL_MS;
    for (const mark of marks) memory.own.set(requireKey(mark, 'own-message mark'), expiresAt);
  }

  async isOwn(ticketId: string, marks: readonly string[]): Promise<boolean> {
    const memory = this.#live(ticketId);
    if (!memory) return false;
    const now = this.#now();
    return marks.some((mark) => (memory.own.get(mark) ?? 0) > now);
  }

  async forget(ticketId: string, afterMs: number): Promise<void> {
    requireDuration(afterMs, 'afterMs');
    this.#memory(ticketId).expiresAt = this.#now() + afterMs;
  }

  #live(ticketId: string): TicketMemory | undefined {
    requireKey(ticketId, 'ticket ID');
    const memory = this.#tickets.get(ticketId);
    if (memory?.expiresAt !== undefined && memory.expiresAt <= this.#now()) {
      this.#tickets.delete(ticketId);
      return undefined;
    }
    return memory;
  }

  #memory(ticketId: string): TicketMemory {
    let memory = this.#live(ticketId);
    if (!memory) {
      memory = {
        state: undefined,
        slackWriteAt: 0,
        hintedAt: 0,
        messageHintedAt: 0,
        announcedAt: 0,
        posts: new Map(),
        own: new Map(),
        expiresAt: undefined,
      };
      this.#tickets.set(ticketId, memory);
    }
    return memory;
  }
}
