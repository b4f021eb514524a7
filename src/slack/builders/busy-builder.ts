/**
 * What a person is told when the platform cannot be asked for them now: their own share of
 * requests is spent for the moment (`fair_share`), or the app's shared budget with the platform
 * is (`budget`). Always with when to try again, and with what the app already knew of the
 * ticket and how old that is, when it knew something.
 */
import type { Ticket } from '../../contract/schemas.ts';
import type { CardAudience } from './card-actions-builder.ts';
import { md, safeMrkdwn } from './mrkdwn.ts';
import { buildTicketCard, type SlackMessage } from './ticket-card-builder.ts';
import { statusLabel } from './ticket-labels.ts';

/** Why the platform was not asked: the person's own share, or everyone's budget. */
export type BusyReason = 'fair_share' | 'budget';

/** "about 40 s", "about 2 min": rounded up, so trying at that time works. */
export function aboutIn(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `about ${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  return `about ${Math.ceil(minutes / 60)} h`;
}

/** "just now", "40 s ago", "3 min ago", "2 h ago": rounded down, never younger than it is. */
export function ageText(ms: number): string {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ago`;
}

/** The one line that says the platform was not asked, and when to try again. */
export function busyLine(reason: BusyReason, retryInMs: number): string {
  const when = aboutIn(retryInMs);
  return reason === 'fair_share'
    ? `:raised_hand: You have asked the service desk for a lot in the last minute, so this one waits to leave room for everyone; try again in ${when}.`
    : `:hourglass_flowing_sand: The service desk is busy; try again in ${when}.`;
}

/** The answer when nothing is known to show instead. */
export function buildBusy(reason: BusyReason, retryInMs: number): SlackMessage {
  const text = busyLine(reason, retryInMs);
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/** What the app last knew of a ticket's status, without the rest of it. */
export interface KnownStatus {
  ticketId: string;
  status: string;
  ageMs: number;
}

/** The ticket's last known status with its age, then why it is not fresher. */
export function buildKnownStatus(
  known: KnownStatus,
  reason: BusyReason,
  retryInMs: number,
): SlackMessage {
  const id = safeMrkdwn(known.ticketId, 40);
  const status = safeMrkdwn(statusLabel(known.status), 200);
  const seen = `*${id}* was ${status} when the app last saw it, ${ageText(known.ageMs)}.`;
  const busy = busyLine(reason, retryInMs);
  return {
    text: `${seen} ${busy}`,
    blocks: [
      { type: 'section', text: md(seen) },
      { type: 'context', elements: [md(busy)] },
    ],
  };
}

/** A whole ticket card the app read earlier, marked with its age and why it is not fresher. */
export function buildKnownCard(
  ticket: Ticket,
  ageMs: number,
  reason: BusyReason,
  retryInMs: number,
  options: { dashboardUrl?: string | undefined; audience?: CardAudience | 'none' } = {},
): SlackMessage {
  const lead = `As the app last saw it, ${ageText(ageMs)}. ${busyLine(reason, retryInMs)}`;
  const card = buildTicketCard(ticket, { ...options, lead });
  return { ...card, text: `${card.text} (as of ${ageText(ageMs)})` };
}

/** A list the app read earlier (the person's open tickets), marked with its age. */
export function buildKnownList(
  list: SlackMessage,
  ageMs: number,
  reason: BusyReason,
  retryInMs: number,
): SlackMessage {
  const lead = `As the app last read them, ${ageText(ageMs)}. ${busyLine(reason, retryInMs)}`;
  return {
    text: `${list.text} (as of ${ageText(ageMs)})`,
    blocks: [{ type: 'context', elements: [md(lead)] }, ...list.blocks],
  };
}

/** Why the create form's lists were not read: the person's share or the budget, and the wait. */
export interface ListsBusy {
  reason: BusyReason;
  retryInMs: number;
}

/**
 * The create form's line when desks or the devices are left out: the person's share or the
 * service desk busy, and when (`undefined`: not answering). The form still files without them.
 * `whose` names whose devices the form lists ("your", "the requester’s").
 */
export function listsNotListedLine(why: ListsBusy | undefined, whose = 'your'): string {
  return `:hourglass_flowing_sand: Desks or ${whose} devices could not be listed: ${listsWhy(why)}. You can still file; the service desk routes it.`;
}

/** The create form's line when the devices shown are a kept list, not read again now. */
export function keptDevicesLine(ageMs: number, why: ListsBusy, whose = 'your'): string {
  return `:information_source: ${whose === 'your' ? 'Your' : 'The requester’s'} devices as the app listed them ${ageText(ageMs)}; they were not read again: ${listsWhy(why)}.`;
}

function listsWhy(why: ListsBusy | undefined): string {
  if (why === undefined) return 'the service desk is not answering right now';
  return why.reason === 'fair_share'
    ? `you have asked the service desk for a lot in the last minute; try again in ${aboutIn(why.retryInMs)}`
    : `the service desk is busy; try again in ${aboutIn(why.retryInMs)}`;
}
