/** What the Slack side's listeners and intents are given: built once in createSlackApp. */

import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { Mirror } from '../mirror/mirror.ts';
import type { ServiceDeskClient } from '../servicedesk/index.ts';
import type { Stores } from '../store/types.ts';
import type { BackgroundTasks } from './app/background-tasks.ts';
import type { OutboxWorker } from './outbox/outbox-worker.ts';
import type { PeopleReads } from './people/fair-share.ts';
import type { PeopleDirectory } from './people/people-directory.ts';
import type { HealWindow } from './threads/heal-window.ts';
import type { DeskCatalog } from './tickets/desk-catalog.ts';
import type { TicketStatusMemo } from './tickets/ticket-status-memo.ts';

/** Settings the Slack side reads. */
export interface SlackSettings {
  ticketEmoji: string;
  channelDesks: ReadonlyMap<string, string>;
  dashboardUrl: string | undefined;
  /** How long a modal submission waits for the ticket before answering Slack (under 3 s). */
  submitWaitMs: number;
}

/** The dependencies of every listener and intent handler. */
export interface SlackDeps {
  settings: SlackSettings;
  logger: Logger;
  client: WebClient;
  serviceDesk: ServiceDeskClient;
  stores: Stores;
  people: PeopleDirectory;
  /** Last seen ticket statuses: spares a platform request per thread reply. */
  statuses: TicketStatusMemo;
  desks: DeskCatalog;
  /** People's reads of the platform: their fair share, a short shared cache, busy answers. */
  reads: PeopleReads;
  tasks: BackgroundTasks;
  worker: OutboxWorker;
  /** Whether thread links may have been lost with the store, so any unknown thread is looked up. */
  healWindow: Pick<HealWindow, 'isOpen'>;
  /** The mirror (platform → Slack): told of writes from Slack; its state is its own. */
  mirror: Mirror;
}

/** What queued writes (intents) are given: everything but the worker that runs them. */
export type IntentDeps = Omit<SlackDeps, 'worker' | 'tasks'>;
