/**
 * What every button handler needs from a click: the button's value, the click's delivery key,
 * where it happened, a private answer to the person who clicked, and the durable enqueue.
 */
import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { normaliseTicketId } from '../../../servicedesk/index.ts';
import { buildRefusal } from '../../builders/refusal-builder.ts';
import type { SlackMessage } from '../../builders/ticket-card-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import type { RefusalReason } from '../../errors.ts';
import { isFirstRefusal } from '../../people/refusal-once.ts';
import { actorOf } from '../../people/ticket-access.ts';
import { tellPrivately } from '../../posting/private-notice.ts';
import { lastKnownStatus } from '../../tickets/closed-ticket-rules.ts';

/**
 * What a button's handler uses of the app's parts: a click may enqueue an intent, refuse, or
 * read the ticket, so every handler takes this one slice.
 */
export type ButtonDeps = Pick<
  SlackDeps,
  | 'client'
  | 'desks'
  | 'healWindow'
  | 'logger'
  | 'mirror'
  | 'people'
  | 'reads'
  | 'serviceDesk'
  | 'settings'
  | 'statuses'
  | 'stores'
  | 'triageThreads'
>;

/** The arguments Bolt gives a block action handler. */
export type ButtonArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

/** The clicked element. */
export interface Click {
  actionId: string;
  blockId: string;
  value: string | undefined;
  actionTs: string;
}

/** The clicked element of a block_actions payload. */
export function clickOf(body: BlockAction): Click {
  const action = body.actions[0] as
    | { action_id?: string; block_id?: string; value?: string; action_ts?: string }
    | undefined;
  return {
    actionId: action?.action_id ?? '',
    blockId: action?.block_id ?? '',
    value: action?.value,
    actionTs: action?.action_ts ?? '',
  };
}

/**
 * A click's delivery key: Slack never redelivers an interaction, and each click has its own
 * action_ts, so a double click makes two intents (both decided against the ticket as it is,
 * so the second changes nothing) while one click can never make two.
 */
export function clickKey(body: BlockAction): string {
  const click = clickOf(body);
  return `action:${body.team?.id ?? '-'}:${body.user.id}:${click.actionId}:${click.actionTs}`;
}

/** The ticket id a card button carries, canonical; undefined when it is not a ticket id. */
export function clickedTicketId(body: BlockAction): string | undefined {
  const value = clickOf(body).value;
  return value ? normaliseTicketId(value) : undefined;
}

/** The conversation and thread the click happened in, when it was in a message. */
export function clickPlace(body: BlockAction): { channel?: string; threadTs?: string } {
  const container = body.container as { channel_id?: string; thread_ts?: string } | undefined;
  const channel = body.channel?.id ?? container?.channel_id;
  const threadTs = (body.message?.thread_ts as string | undefined) ?? container?.thread_ts;
  return { ...(channel ? { channel } : {}), ...(threadTs ? { threadTs } : {}) };
}

/** Tells the person who clicked, privately, where they clicked. */
export async function tellClicker(
  deps: ButtonDeps,
  body: BlockAction,
  message: SlackMessage,
): Promise<void> {
  const place = clickPlace(body);
  await tellPrivately(
    deps.client,
    {
      userId: body.user.id,
      ...place,
      ...(body.response_url ? { responseUrl: body.response_url } : {}),
    },
    message,
  );
}

/**
 * Refuses a click privately where the person is looking: in the conversation itself, never in
 * a thread (a card at the top of a thread carries the thread's ts, and an answer there would
 * sit in a thread the person has not opened). A repeat of the same click within a few seconds
 * is not refused again.
 */
export async function refuseClicker(
  deps: ButtonDeps,
  body: BlockAction,
  ticketId: string,
  reason: RefusalReason,
): Promise<void> {
  const ask = { userId: body.user.id, ticketId, action: clickOf(body).actionId };
  if (!(await isFirstRefusal(deps.stores.claims, ask))) return;
  const { channel } = clickPlace(body);
  await tellPrivately(
    deps.client,
    {
      userId: body.user.id,
      ...(channel ? { channel } : {}),
      ...(body.response_url ? { responseUrl: body.response_url } : {}),
    },
    buildRefusal(reason, ticketId),
  );
}

/**
 * A quick refusal before anything is queued, for buttons only a ticket's requester or an agent
 * may use: when the requester is already known (no platform request), anyone else is told at
 * once. When it is not known, the intent decides with the ticket before any write.
 */
export async function refusedEarly(deps: ButtonDeps, body: BlockAction, ticketId: string) {
  const known = await lastKnownStatus(deps, ticketId);
  if (!known?.requesterEmail) return false;
  const actor = await actorOf(deps, body.user.id);
  if (actor.isAgent || actor.email === known.requesterEmail) return false;
  await refuseClicker(deps, body, ticketId, 'not_visible');
  return true;
}
