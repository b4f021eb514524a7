/**
 * `/ticket`: with nothing or words, the create modal; with an ID, that ticket's card; `mine`,
 * the person's open tickets; `queue`, an agent's queue (as on their Home); `help`, what the app
 * does. Answers that need the platform are
 * given after the ack, privately, through the command's response_url: read within the person's
 * fair share, and when the platform cannot be asked now, what the app knew with its age, or
 * when to try again; never nothing.
 */
import type { AllMiddlewareArgs, RespondFn, SlackCommandMiddlewareArgs } from '@slack/bolt';
import {
  isServiceDeskError,
  normaliseTicketId,
  type Ticket,
  ticketIdFromText,
} from '../../../servicedesk/index.ts';
import {
  buildQueueForAgentsOnly,
  buildQueueMessage,
  homeUnassignedRoom,
} from '../../builders/agent-queue-builder.ts';
import {
  ageText,
  buildBusy,
  buildKnownCard,
  buildKnownList,
  buildKnownStatus,
  busyLine,
} from '../../builders/busy-builder.ts';
import { TITLE_MAX } from '../../builders/create-modal-builder.ts';
import { buildHelp } from '../../builders/help-builder.ts';
import { buildTicketCard } from '../../builders/ticket-card-builder.ts';
import { buildTicketList, buildTicketNotFound } from '../../builders/ticket-list-builder.ts';
import { clockInputsAt } from '../../cards/service-clocks.ts';
import type { SlackDeps } from '../../deps.ts';
import { openCreateModal } from '../../modals/create-modal.ts';
import { queueAskFor } from '../../people/agent-queue.ts';
import { knownTicketStatus, type PersonRead } from '../../people/fair-share.ts';
import { shownAssignee } from '../../people/people-by-email.ts';
import { audienceOf, maySeeKnown, readVisibleTicket } from '../../people/ticket-access.ts';
import { deskFieldsFor } from '../../tickets/desk-fields.ts';
import { titleFromText } from '../../tickets/message-text.ts';
import { channelModeCommand, isChannelModeCommand } from './channel-mode-command.ts';
import { isRequestCommand, requestCommand } from './request-command.ts';
import { answerTriage, isTriageCommand } from './triage-command.ts';

/** What this file's listeners use of the app's parts. */
type ListenerDeps = Pick<
  SlackDeps,
  | 'catalog'
  | 'client'
  | 'deskFields'
  | 'desks'
  | 'logger'
  | 'mirror'
  | 'people'
  | 'reads'
  | 'serviceClocks'
  | 'serviceDesk'
  | 'settings'
  | 'statuses'
  | 'stores'
  | 'tasks'
  | 'triageMembers'
  | 'triageRecords'
>;

type Args = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

const ephemeral = (message: { text: string; blocks?: unknown[] }) => ({
  response_type: 'ephemeral' as const,
  ...message,
});

/** Builds the `/ticket` handler. */
export function ticketCommand(deps: ListenerDeps) {
  return async ({ command, ack, respond }: Args): Promise<void> => {
    const text = command.text.trim();
    const word = text.toLowerCase();
    if (isChannelModeCommand(word)) {
      await channelModeCommand(deps, { command, ack, respond });
      return;
    }
    if (word === 'help') {
      await ack(ephemeral(buildHelp(deps.settings.ticketEmoji)) as never);
      return;
    }
    await ack();
    const context = { user: command.user_id, channel: command.channel_id };
    if (isTriageCommand(word)) {
      const request = { userId: command.user_id, channelId: command.channel_id, text };
      deps.tasks.run('ticket-triage', () => answerTriage(deps, request, respond), context);
      return;
    }
    if (isRequestCommand(word)) {
      requestCommand(deps, command);
      return;
    }
    if (word === 'queue') {
      deps.tasks.run('ticket-queue', () => answerQueue(deps, command.user_id, respond), context);
      return;
    }
    if (word === 'mine') {
      deps.tasks.run('ticket-mine', () => answerMine(deps, command.user_id, respond), context);
      return;
    }
    const ticketId = ticketIdFromText(text);
    if (ticketId) {
      deps.tasks.run(
        'ticket-lookup',
        () => answerLookup(deps, command.user_id, ticketId, text, respond),
        context,
      );
      return;
    }
    const words = word.startsWith('new ') ? text.slice(4).trim() : text;
    deps.tasks.run(
      'open-create-modal',
      () =>
        openCreateModal(deps, {
          triggerId: command.trigger_id,
          userId: command.user_id,
          metadata: { channel: command.channel_id },
          ...formFromWords(words),
          tellAt: { responseUrl: command.response_url, channel: command.channel_id },
        }),
      context,
    );
  };
}

/**
 * The modal's title and description from the command's words: a title when they fit one, else
 * a title made from their start and all of them as the description, so nothing is cut.
 */
function formFromWords(words: string): { title?: string; description?: string } {
  if (!words) return {};
  const title = titleFromText(words, TITLE_MAX);
  return title === words ? { title } : { title, description: words };
}

async function answerLookup(
  deps: ListenerDeps,
  userId: string,
  ticketId: string,
  typed: string,
  respond: RespondFn,
): Promise<void> {
  const read = await withPlatform(deps, respond, () =>
    readVisibleTicket(deps, userId, ticketId, 'lookup'),
  );
  if (read === null) return;
  if (read.kind === 'busy') {
    await respond(ephemeral(await busyAnswer(deps, userId, ticketId, read)));
    return;
  }
  const ticket = read.value;
  if (!ticket) {
    await respond(ephemeral(buildTicketNotFound(ticketId, typed)));
    return;
  }
  // Only the person sees this card, so it carries only the buttons that are theirs.
  const audience = await audienceOf(deps, userId, ticket);
  // The desk's field names label the ticket's custom values; kept, so rarely a request.
  const { fields: deskFields } = await deskFieldsFor(
    deps,
    { userId, request: 'lookup' },
    ticket.desk_id,
  );
  await respond(
    ephemeral(
      buildTicketCard(ticket, {
        dashboardUrl: deps.settings.dashboardUrl,
        audience,
        deskFields,
        // The assignee by name (a mention), as the thread's lines name them.
        assignee: await shownAssignee(deps.people.byEmail?.bind(deps.people), ticket),
        // Shown only to an agent: the builder checks the audience (fail closed).
        clocks: deps.serviceClocks?.(),
      }),
    ),
  );
}

/**
 * What to say when the platform could not be asked for the person: the ticket as it was last
 * read (if they may see it), else its last known status (if they may see it), with its age;
 * else only that it is busy and when to try again. A ticket they may not see is never hinted at.
 */
async function busyAnswer(
  deps: ListenerDeps,
  userId: string,
  ticketId: string,
  busy: Extract<PersonRead<Ticket | undefined>, { kind: 'busy' }>,
) {
  const id = normaliseTicketId(ticketId) ?? ticketId;
  const now = deps.reads.now();
  const retryInMs = busy.retryAt - now;
  const kept = busy.kept?.value;
  const known = await knownTicketStatus(deps, id);
  const keptAt = busy.kept?.keptAt ?? 0;
  if (kept && keptAt >= (known?.at ?? 0)) {
    deps.reads.answeredFromKnown('lookup');
    const audience = await audienceOf(deps, userId, kept);
    return buildKnownCard(kept, now - keptAt, busy.reason, retryInMs, {
      dashboardUrl: deps.settings.dashboardUrl,
      audience,
    });
  }
  if (known && (await maySeeKnown(deps, userId, known))) {
    deps.reads.answeredFromKnown('lookup');
    return buildKnownStatus(
      { ticketId: id, status: known.status, ageMs: now - known.at },
      busy.reason,
      retryInMs,
    );
  }
  return buildBusy(busy.reason, retryInMs);
}

async function answerMine(deps: ListenerDeps, userId: string, respond: RespondFn): Promise<void> {
  const read = await withPlatform(deps, respond, async () => {
    const email = (await deps.people.person(userId)).email;
    if (!email) return undefined;
    return deps.reads.openRequested(userId, email, 'mine', (t) => deps.statuses.remember(t));
  });
  if (read === null) return;
  if (read === undefined) {
    const text =
      'Your Slack profile has no email address, so the service desk cannot find your tickets.';
    await respond(ephemeral({ text }));
    return;
  }
  if (read.kind === 'busy') {
    const retryInMs = read.retryAt - deps.reads.now();
    if (!read.kept) {
      await respond(ephemeral(buildBusy(read.reason, retryInMs)));
      return;
    }
    deps.reads.answeredFromKnown('mine');
    const ageMs = deps.reads.now() - read.kept.keptAt;
    await respond(
      ephemeral(
        buildKnownList(
          buildTicketList(read.kept.value, deps.settings.dashboardUrl),
          ageMs,
          read.reason,
          retryInMs,
        ),
      ),
    );
    return;
  }
  await respond(ephemeral(buildTicketList(read.value, deps.settings.dashboardUrl)));
}

/** An agent's queue, privately; anyone else is told it is for agents. */
async function answerQueue(deps: ListenerDeps, userId: string, respond: RespondFn): Promise<void> {
  const email = (await deps.people.person(userId)).email;
  // Read as the Home reads it, so both answer from the one kept queue.
  const ask = email ? await queueAskFor(deps, userId, email, homeUnassignedRoom) : undefined;
  if (!ask) {
    await respond(ephemeral(buildQueueForAgentsOnly()));
    return;
  }
  const read = await withPlatform(deps, respond, () => deps.reads.agentQueue(userId, ask, 'queue'));
  if (read === null) return;
  const now = deps.reads.now();
  const options = {
    dashboardUrl: deps.settings.dashboardUrl,
    clocks: clockInputsAt(deps.settings, now),
  };
  if (read.kind === 'read') {
    await respond(ephemeral(buildQueueMessage(read.value, options)));
    return;
  }
  const retryInMs = read.retryAt - now;
  if (!read.kept) {
    await respond(ephemeral(buildBusy(read.reason, retryInMs)));
    return;
  }
  deps.reads.answeredFromKnown('queue');
  const asOf = `As the app last read it, ${ageText(now - read.kept.keptAt)}. ${busyLine(read.reason, retryInMs)}`;
  await respond(ephemeral(buildQueueMessage(read.kept.value, options, asOf)));
}

/**
 * Runs a platform call for a person waiting on an answer; when the platform fails, tells them
 * in plain words and returns null. Anything but a platform error is a bug and is rethrown.
 */
async function withPlatform<T>(
  deps: ListenerDeps,
  respond: RespondFn,
  call: () => Promise<T>,
): Promise<T | null> {
  try {
    return await call();
  } catch (error) {
    if (!isServiceDeskError(error)) throw error;
    const status = (error as { status?: number }).status;
    // The person is told in plain words; operators need the cause.
    deps.logger.warn({ err: error }, 'a lookup for a person failed on the platform');
    const text =
      status === 401 || status === 403
        ? ':warning: The service desk refused this app’s access key. Please ask your Slack admin to check the Service Desk app.'
        : ':hourglass_flowing_sand: The service desk is not answering right now. Please try again in a minute.';
    await respond(ephemeral({ text }));
    return null;
  }
}
