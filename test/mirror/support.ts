/** What the mirror's unit tests share: the emulator's model as the platform, and a poster. */

import type {
  ChangeFeedPlatform,
  MirrorPlatform,
  MirrorPoster,
  PostOutcome,
} from '../../src/mirror/index.ts';
import {
  type Activity,
  apiErrorFromResponse,
  type Message,
  type OperationName,
  type Ticket,
} from '../../src/servicedesk/index.ts';
import type { Thread } from '../../src/store/types.ts';
import { EmulatorModel } from '../../tools/emulator/index.ts';
import { applySeed } from '../../tools/emulator/seed.ts';

/** The tenant of every test. */
export const TENANT = 'acme';
/** An agent of the tenant. */
export const SAM = 'sam.rivera@acme.example';

/** The model with the tenant's desks and people, and no tickets. */
export function emptyModel(
  now: () => number,
  capabilities: ConstructorParameters<typeof EmulatorModel>[1] = {},
): EmulatorModel {
  const model = new EmulatorModel(now, capabilities);
  applySeed(model, 'empty', [TENANT]);
  model.addEmployee(TENANT, { id: 'e-sam', email: SAM, name: 'Sam Rivera', role: 'agent' });
  return model;
}

/** A platform call the fake recorded. */
export interface PlatformCall {
  operation: OperationName;
  ticketId: string;
}

/**
 * The model behind the mirror's calls and the change feed's, as the client would answer them:
 * each call is recorded, and the next ones can be made to fail as the client's own errors would.
 */
export class ModelPlatform implements MirrorPlatform, ChangeFeedPlatform {
  readonly calls: PlatformCall[] = [];
  /** When set, every call throws what this returns (a refused budget, a 503...). */
  failWith: ((operation: OperationName) => Error) | undefined;
  readonly #model: EmulatorModel;

  constructor(model: EmulatorModel) {
    this.#model = model;
  }

  listActivity: MirrorPlatform['listActivity'] = async (id, query = {}) => {
    this.#enter('listActivity', id);
    return this.#model.pageActivity(TENANT, id, {
      limit: query.limit ?? 25,
      offset: query.offset ?? 0,
    });
  };

  listMessages: MirrorPlatform['listMessages'] = async (id, query = {}) => {
    this.#enter('listMessages', id);
    return this.#model.pageMessages(TENANT, id, {
      page: query.page ?? 1,
      pageSize: query.page_size ?? 25,
    });
  };

  getTicket: MirrorPlatform['getTicket'] = async (id) => {
    this.#enter('getTicket', id);
    return this.#model.getTicket(TENANT, id);
  };

  listTickets: ChangeFeedPlatform['listTickets'] = async (query = {}) => {
    if (this.failWith) throw this.failWith('listTickets');
    this.calls.push({ operation: 'listTickets', ticketId: '' });
    const ms = (value: string | Date | undefined) =>
      value === undefined ? undefined : new Date(value).getTime();
    const createdAfterMs = ms(query.created_after);
    const updatedAfterMs = ms(query.updated_after);
    return this.#model.listTickets(TENANT, {
      page: query.page ?? 1,
      pageSize: query.page_size ?? 25,
      ...(query.desk_id === undefined ? {} : { deskId: query.desk_id }),
      ...(createdAfterMs === undefined ? {} : { createdAfterMs }),
      ...(updatedAfterMs === undefined ? {} : { updatedAfterMs }),
    });
  };

  /** How many calls of an operation were made. */
  count(operation: OperationName): number {
    return this.calls.filter((call) => call.operation === operation).length;
  }

  #enter(operation: OperationName, ticketId: string): void {
    if (this.failWith) throw this.failWith(operation);
    this.calls.push({ operation, ticketId });
    if (!this.#model.findTicket(TENANT, ticketId)) {
      throw apiErrorFromResponse({
        operation,
        method: 'GET',
        path: `/api/v1/tickets/${ticketId}/`,
        status: 404,
        headers: {},
        body: { detail: 'Not found' },
      });
    }
  }
}

/** A 503 as the client raises it. */
export function serverError(operation: OperationName): Error {
  return apiErrorFromResponse({
    operation,
    method: 'GET',
    path: '/api/v1/tickets/',
    status: 503,
    headers: {},
    body: { detail: 'Service Unavailable' },
  });
}

/** One post the poster made. */
export type Post =
  | { kind: 'message'; thread: Thread; ticketId: string; message: Message }
  | { kind: 'change'; thread: Thread; ticketId: string; activity: Activity }
  | { kind: 'notice'; ticketId: string; status: string; email: string; title: string | undefined };

/** A poster that records every post and can be made to fail or to report a thread gone. */
export class RecordingPoster implements MirrorPoster {
  readonly posts: Post[] = [];
  /** Posts that fail (Slack errors) before the next one goes through. */
  failures = 0;
  /** Threads that no longer take posts. */
  readonly gone = new Set<string>();
  /** Item ids `findPosted` reports as already in a thread. */
  readonly alreadyThere = new Set<string>();
  readonly lookups: string[] = [];
  /** Every card refresh asked for, in order, including the ones made to fail. */
  readonly refreshes: { thread: Thread; ticket: Ticket }[] = [];
  /** When set, every card refresh throws it. */
  refreshFailure: Error | undefined;
  /** When set, the next post throws it instead of posting (then it is cleared). */
  nextPostError: Error | undefined;

  async postMessage(thread: Thread, ticketId: string, message: Message): Promise<PostOutcome> {
    return this.#record({ kind: 'message', thread, ticketId, message }, thread);
  }

  async postChange(thread: Thread, change: { ticketId: string; activity: Activity }) {
    return this.#record(
      { kind: 'change', thread, ticketId: change.ticketId, activity: change.activity },
      thread,
    );
  }

  async notifyRequester(notice: {
    ticketId: string;
    status: string;
    requesterEmail: string;
    ticket: { title: string } | undefined;
  }): Promise<PostOutcome> {
    return this.#record({
      kind: 'notice',
      ticketId: notice.ticketId,
      status: notice.status,
      email: notice.requesterEmail,
      title: notice.ticket?.title,
    });
  }

  async findPosted(_thread: Thread, _ticketId: string, itemId: string): Promise<boolean> {
    this.lookups.push(itemId);
    return this.alreadyThere.has(itemId);
  }

  async refreshCard(thread: Thread, ticket: Ticket): Promise<void> {
    this.refreshes.push({ thread, ticket });
    if (this.refreshFailure) throw this.refreshFailure;
  }

  /** The bodies of the messages posted, in order. */
  bodies(): string[] {
    return this.posts.flatMap((post) => (post.kind === 'message' ? [post.message.body] : []));
  }

  #record(post: Post, thread?: Thread): PostOutcome {
    const planned = this.nextPostError;
    if (planned) {
      this.nextPostError = undefined;
      throw planned;
    }
    if (this.failures > 0) {
      this.failures -= 1;
      throw Object.assign(new Error('An API error occurred: internal_error'), {
        code: 'slack_webapi_platform_error',
        data: { error: 'internal_error' },
      });
    }
    if (thread && this.gone.has(thread.channel)) return 'gone';
    this.posts.push(post);
    return 'posted';
  }
}
