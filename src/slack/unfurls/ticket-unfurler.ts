/**
 * Unfurls tickets' dashboard links posted in Slack (`link_shared` → `chat.unfurl`).
 *
 * Privacy: everyone in the conversation sees an unfurl, so a ticket is shown only when the
 * person who shared the link may see it (an agent, or its requester), and the ticket is never
 * read for anyone else. The decision comes before any read:
 * - an agent may see every ticket: the ticket is read (or served from what is kept);
 * - anyone else may see only their own tickets, and who requested a ticket is decided from what
 *   the app already knows without asking the platform: its status memo, the mirror's last poll,
 *   or the last read of the ticket kept for anyone. Only when that names them the requester is
 *   the ticket read, and the read is checked again. Nothing known, or someone else's: the link
 *   unfurls as "IT-19 · a private ticket" (fail closed), as does a ticket that does not exist.
 *
 * Cost: a read is kept for `UNFURL_FRESH_MS` and shared by everyone (the same ticket pasted in
 * ten channels is one read), paid from the sharer's fair share; a message unfurls at most
 * `MAX_UNFURLS_PER_MESSAGE` of its links, so a storm of links spends at most that many reads a
 * message, within the sharer's share and the shared budget. A link the platform cannot be asked
 * about now (share or budget spent) unfurls from a kept read if one is, else stays a bare link.
 *
 * Once: a message's links are unfurled under a claim on the message, so two replicas or Slack's
 * redelivery do it once (and `chat.unfurl` on the same message replaces, never adds).
 */
import type { Ticket } from '../../contract/schemas.ts';
import { isServiceDeskError, NotFoundError } from '../../servicedesk/index.ts';
import { StoreError } from '../../store/index.ts';
import { slackRetryAt } from '../app/slack-clients.ts';
import {
  buildPrivateTicketUnfurl,
  buildTicketUnfurl,
  type TicketUnfurl,
} from '../builders/ticket-unfurl-builder.ts';
import type { SlackDeps } from '../deps.ts';
import { isSlackFailure } from '../errors.ts';
import { isRequester, maySee } from '../people/ticket-access.ts';
import { ticketIdOfLink } from './ticket-links.ts';

/** Most links of one message unfurled: the rest stay bare links (Slack shows them as posted). */
export const MAX_UNFURLS_PER_MESSAGE = 10;
/** How long one read of a ticket answers every unfurl of it, in any channel. */
export const UNFURL_FRESH_MS = 5 * 60_000;
// Slack's Retry-After on chat.unfurl is waited out this long at most; past it the links stay bare.
const MAX_RETRY_WAIT_MS = 10_000;
// Long enough for the reads and chat.unfurl; a replica that died holding it frees it.
const CLAIM_LEASE_MS = 60_000;
// Slack redelivers an event for minutes at most; a day covers any late redelivery.
const CLAIM_KEPT_MS = 24 * 3_600_000;

/** What unfurling uses of the app's parts. */
export type UnfurlDeps = Pick<
  SlackDeps,
  'client' | 'logger' | 'people' | 'reads' | 'statuses' | 'mirror' | 'desks' | 'settings' | 'stores'
>;

/** A `link_shared` event's message and its links, as checked. */
export interface SharedLinks {
  channel: string;
  messageTs: string;
  /** Who posted the message. */
  user: string;
  links: readonly string[];
}

/** Options (tests): how the wait for Slack's Retry-After is made. */
export interface UnfurlOptions {
  sleep?: (ms: number) => Promise<void>;
}

/** The links of a message that are tickets' dashboard links, at most the per-message cap. */
export function ticketLinks(
  links: readonly string[],
  hosts: readonly string[],
): { url: string; ticketId: string }[] {
  const found: { url: string; ticketId: string }[] = [];
  const seen = new Set<string>();
  for (const url of links) {
    if (seen.has(url)) continue;
    seen.add(url);
    const ticketId = ticketIdOfLink(url, hosts);
    if (ticketId) found.push({ url, ticketId });
    if (found.length >= MAX_UNFURLS_PER_MESSAGE) break;
  }
  return found;
}

/** Unfurls a message's ticket links for the person who posted it; see the file's comment. */
export async function unfurlTicketLinks(
  deps: UnfurlDeps,
  shared: SharedLinks,
  options: UnfurlOptions = {},
): Promise<void> {
  const found = ticketLinks(shared.links, deps.settings.dashboardHosts ?? []);
  if (found.length === 0) return;
  const claimKey = `unfurl:${shared.channel}:${shared.messageTs}`;
  const claim = await deps.stores.claims.claim(claimKey, CLAIM_LEASE_MS);
  if (claim.state !== 'claimed') return;
  let answered = false;
  try {
    const decided = await decideVisibility(deps, shared.user);
    // One answer per ticket, side by side: the same ticket linked twice is decided once.
    const ticketIds = [...new Set(found.map((link) => link.ticketId))];
    const answers = new Map(
      await Promise.all(
        ticketIds.map(async (id) => [id, await unfurlOf(deps, shared.user, id, decided)] as const),
      ),
    );
    const unfurls: Record<string, TicketUnfurl> = {};
    for (const { url, ticketId } of found) {
      const unfurl = answers.get(ticketId);
      if (unfurl) unfurls[url] = unfurl;
    }
    if (Object.keys(unfurls).length === 0) return;
    answered = await sendUnfurls(deps, shared, unfurls, options.sleep ?? sleep);
  } finally {
    // Done whatever Slack answered: Slack does not send the event again once it was acked, and
    // a second try from a replica would only spend the same reads again.
    await deps.stores.claims.complete(claimKey, claim.token, answered, CLAIM_KEPT_MS);
  }
}

/** Who the sharer is, as the decision needs: an agent, or a person with (maybe) an email. */
interface Sharer {
  isAgent: boolean;
  email: string | undefined;
}

async function decideVisibility(deps: UnfurlDeps, userId: string): Promise<Sharer> {
  const isAgent = await deps.people.isAgent(userId);
  if (isAgent) return { isAgent, email: undefined };
  const person = await deps.people.person(userId);
  return { isAgent, email: person.email?.toLowerCase() };
}

/**
 * Whether the sharer, not an agent, is known to be the ticket's requester without reading it:
 * the status memo, the mirror's last poll, else the last read kept for anyone. A ticket's
 * requester does not change, so whichever of them names one answers, however old (the newest
 * may be a poll that kept no requester); a wrong answer costs one read, checked again after.
 */
async function knownRequester(deps: UnfurlDeps, ticketId: string, sharer: Sharer) {
  if (!sharer.email) return false;
  const named = [
    deps.statuses.get(ticketId)?.requesterEmail,
    await mirroredRequester(deps, ticketId),
  ];
  const known = named.find((email) => email !== undefined);
  if (known !== undefined) return isRequester(sharer, { requester_email: known });
  const kept = await deps.reads.keptTicket(ticketId);
  return kept !== undefined && isRequester(sharer, kept.value);
}

/** The requester the mirror's last poll kept, if any (none when its store cannot answer). */
async function mirroredRequester(deps: UnfurlDeps, ticketId: string) {
  try {
    return (await deps.mirror.lastRead(ticketId.toUpperCase()))?.requesterEmail ?? undefined;
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    return undefined;
  }
}

/** One ticket's unfurl; undefined leaves its links bare (the platform cannot be asked now). */
async function unfurlOf(
  deps: UnfurlDeps,
  userId: string,
  ticketId: string,
  sharer: Sharer,
): Promise<TicketUnfurl | undefined> {
  // Decided before any read: a ticket is never read for someone who may not see it.
  if (!sharer.isAgent && !(await knownRequester(deps, ticketId, sharer)))
    return buildPrivateTicketUnfurl(ticketId);
  let ticket: Ticket;
  try {
    const read = await deps.reads.ticket(userId, ticketId, 'unfurl', { freshMs: UNFURL_FRESH_MS });
    if (read.kind === 'busy') {
      if (!read.kept) return undefined;
      ticket = read.kept.value;
    } else {
      if (read.source === 'platform') deps.statuses.remember(read.value);
      ticket = read.value;
    }
  } catch (error) {
    // A ticket that does not exist reads as one the person may not see.
    if (error instanceof NotFoundError) return buildPrivateTicketUnfurl(ticketId);
    if (!isServiceDeskError(error)) throw error;
    deps.logger.warn(
      { err: error, ticketId },
      'a ticket link was not unfurled: the platform failed',
    );
    return undefined;
  }
  // Checked again on what was read: the kept knowledge may be out of date.
  if (!(await maySee(deps, userId, ticket))) return buildPrivateTicketUnfurl(ticketId);
  const assignee = ticket.assignee_email
    ? await deps.people.byEmail?.(ticket.assignee_email)
    : undefined;
  return buildTicketUnfurl(ticket, {
    assignee,
    desks: deps.desks.peek(),
    dashboardUrl: deps.settings.dashboardUrl,
  });
}

/**
 * Sends the unfurls; a 429 is waited out (Slack's Retry-After, up to `MAX_RETRY_WAIT_MS` in all)
 * and tried again. Slack refusing otherwise (a 500 after the client's own retry, an error) is
 * logged and leaves the links bare: an unfurl is a courtesy, and the message stands without it.
 */
async function sendUnfurls(
  deps: UnfurlDeps,
  shared: SharedLinks,
  unfurls: Record<string, TicketUnfurl>,
  wait: (ms: number) => Promise<void>,
): Promise<boolean> {
  let waited = 0;
  for (;;) {
    try {
      await deps.client.chat.unfurl({
        channel: shared.channel,
        ts: shared.messageTs,
        unfurls,
      });
      return true;
    } catch (error) {
      // Only Slack's answers (an error, a 429, a 5xx after the client's retry) are expected here.
      if (!isSlackFailure(error)) throw error;
      const now = Date.now();
      const retryAt = slackRetryAt(error, now);
      const waitMs = retryAt === undefined ? undefined : Math.max(0, retryAt - now);
      if (waitMs !== undefined && waited + waitMs <= MAX_RETRY_WAIT_MS) {
        waited += waitMs;
        await wait(waitMs);
        continue;
      }
      deps.logger.warn(
        { err: error, channel: shared.channel, links: Object.keys(unfurls).length },
        'Slack did not take the unfurls of ticket links; they stay bare links',
      );
      return false;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
