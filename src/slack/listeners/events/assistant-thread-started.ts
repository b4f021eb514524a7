/**
 * A person opened Slack's AI pane with the app (or started a new chat in it): the thread is
 * remembered as a pane conversation, so the first message written in it files a ticket, and the
 * pane offers up to four suggested prompts, drawn from the service catalog and the desks (or
 * ASSISTANT_PROMPTS). The thread is remembered before Slack is answered; the prompts follow,
 * read from the kept catalog and desks, or within the person's fair share when none are kept.
 */
import type { z } from 'zod';
import type { CatalogItem, Desk } from '../../../contract/schemas.ts';
import { isServiceDeskError } from '../../../servicedesk/index.ts';
import { buildPanePrompts } from '../../builders/pane-prompts-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { FairShareSpentError } from '../../errors.ts';
import {
  type PaneThread,
  rememberPaneThread,
  suggestPanePrompts,
} from '../../threads/pane-threads.ts';
import type { assistantThreadStartedShape } from './event-shapes.ts';

/** What this listener uses of the app's parts. */
type ListenerDeps = Pick<
  SlackDeps,
  'catalog' | 'client' | 'desks' | 'logger' | 'reads' | 'settings' | 'stores' | 'tasks'
>;

type StartedEvent = z.infer<typeof assistantThreadStartedShape>;

/** Builds the assistant_thread_started handler. */
export function assistantThreadStarted(deps: ListenerDeps) {
  return async (event: StartedEvent): Promise<void> => {
    const { user_id: userId, channel_id: channel, thread_ts: threadTs } = event.assistant_thread;
    const thread: PaneThread = { channel, threadTs };
    // Before the ack: a message written at once must find the thread known.
    await rememberPaneThread(deps.stores.claims, thread, userId);
    deps.tasks.run('suggest-pane-prompts', () => offerPrompts(deps, thread, userId), {
      channel,
      user: userId,
    });
  };
}

async function offerPrompts(deps: ListenerDeps, thread: PaneThread, userId: string) {
  const configured = deps.settings.panePrompts;
  const drawn =
    configured === undefined
      ? { catalog: await catalogItems(deps, userId), desks: await desks(deps, userId) }
      : { catalog: undefined, desks: undefined };
  const prompts = buildPanePrompts({ configured, ...drawn });
  await suggestPanePrompts(deps, thread, prompts);
}

// A read refused (the person's share spent, the platform away) leaves the defaults: the
// prompts are a convenience, never worth a wait or an error.
function unreadable(deps: ListenerDeps, what: string) {
  return (error: unknown): undefined => {
    if (!(error instanceof FairShareSpentError) && !isServiceDeskError(error)) throw error;
    deps.logger.info({ err: error }, `the AI pane's prompts go without the ${what}`);
    return undefined;
  };
}

async function catalogItems(
  deps: ListenerDeps,
  userId: string,
): Promise<CatalogItem[] | undefined> {
  const read =
    deps.catalog.peek() ??
    (await deps.catalog
      .get(deps.reads.payer(userId, 'catalog'))
      .catch(unreadable(deps, 'catalog')));
  return read?.kind === 'items' ? read.items : undefined;
}

async function desks(deps: ListenerDeps, userId: string): Promise<Desk[] | undefined> {
  return (
    deps.desks.peek() ??
    (await deps.desks.list(deps.reads.payer(userId, 'form')).catch(unreadable(deps, 'desks')))
  );
}
