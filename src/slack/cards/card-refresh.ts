/**
 * Brings the message a change came from up to date with the ticket as the platform now has it:
 * the card shows the new status, priority and assignee, and buttons that fit the new status (a
 * triage card stays a triage card).
 * Best effort: the change itself is already made, so a message that cannot be updated (deleted,
 * expired response_url) is logged and left.
 */
import type { Ticket } from '../../contract/schemas.ts';
import type { CardRef } from '../builders/card-ref.ts';
import { buildOutcomeLine } from '../builders/change-notice-builder.ts';
import { noticeWithoutReopen } from '../builders/reopened-notice-builder.ts';
import { buildTicketCard } from '../builders/ticket-card-builder.ts';
import { buildTriageCard } from '../builders/triage-card-builder.ts';
import type { IntentDeps } from '../deps.ts';
import { shownAssignee } from '../people/people-by-email.ts';
import { type Actor, isRequester } from '../people/ticket-access.ts';
import { postToResponseUrl } from '../posting/private-notice.ts';
import { deskFieldsOf } from '../tickets/desk-fields.ts';
import { isDirectMessage } from './card-audience.ts';

/**
 * Refreshes the message a change came from; never throws. `changed` says whether the click
 * made the change: a stale Reopen on a notice whose ticket is open already names nobody.
 */
export async function refreshCard(
  deps: Pick<IntentDeps, 'client' | 'logger' | 'settings'> &
    Partial<Pick<IntentDeps, 'desks' | 'deskFields' | 'people' | 'serviceClocks'>>,
  card: CardRef | undefined,
  ticket: Ticket,
  actor: Actor,
  changed = true,
): Promise<void> {
  if (!card) return;
  const viewer = { isAgent: actor.isAgent, isRequester: isRequester(actor, ticket) };
  try {
    const assignee = await shownAssignee(deps.people?.byEmail?.bind(deps.people), ticket);
    if (card.kind === 'card') {
      const message = buildTicketCard(ticket, {
        dashboardUrl: deps.settings.dashboardUrl,
        ...(card.lead ? { lead: card.lead } : {}),
        audience: isDirectMessage(card.channel) ? viewer : 'everyone',
        assignee,
      });
      await deps.client.chat.update({
        channel: card.channel,
        ts: card.ts,
        // Without metadata, chat.update keeps the message's own (the ticket it is about).
        ...message,
      });
      return;
    }
    if (card.kind === 'triage') {
      const deskName = deps.desks?.peek()?.find((d) => d.slug === ticket.desk_id)?.name;
      const message = buildTriageCard(ticket, {
        dashboardUrl: deps.settings.dashboardUrl,
        deskFields: await deskFieldsOf(deps, ticket.desk_id),
        ...(card.requesterUserId ? { requester: { userId: card.requesterUserId } } : {}),
        ...(card.permalink ? { slackPermalink: card.permalink } : {}),
        ...(deskName ? { deskName } : {}),
        assignee,
        clocks: deps.serviceClocks?.(),
      });
      // Without metadata, chat.update keeps the card's own (the ticket it is about).
      await deps.client.chat.update({ channel: card.channel, ts: card.ts, ...message });
      return;
    }
    if (card.kind === 'ephemeral') {
      const message = buildTicketCard(ticket, {
        dashboardUrl: deps.settings.dashboardUrl,
        ...(card.lead ? { lead: card.lead } : {}),
        audience: viewer,
        assignee,
        // Its one viewer's card: the clocks show only when they are an agent (the builder's rule).
        clocks: deps.serviceClocks?.(),
      });
      await postToResponseUrl(card.responseUrl, { replace_original: true, ...message });
      return;
    }
    const reopenedElsewhere =
      !changed && ticket.status !== 'resolved' && ticket.status !== 'closed'
        ? noticeWithoutReopen(card.blocks, ticket.id)
        : undefined;
    const line = buildOutcomeLine(ticket.id, ticket.status, actor.userId);
    const blocks =
      reopenedElsewhere ??
      card.blocks.map((block) =>
        (block as { block_id?: string }).block_id === card.actionsBlockId ? line : block,
      );
    await deps.client.chat.update({
      channel: card.channel,
      ts: card.ts,
      text: card.text || `${ticket.id} is ${ticket.status}`,
      blocks: blocks as never,
    });
  } catch (error) {
    deps.logger.warn(
      { err: error, ticket_id: ticket.id, card_kind: card.kind },
      'the card could not be refreshed after a change',
    );
  }
}
