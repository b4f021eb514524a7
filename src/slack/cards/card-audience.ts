/**
 * Who sees a ticket card, deciding its buttons. A card in a channel is seen by everyone, so it
 * carries every button and each click is checked on the server. A card in a direct message
 * with the app is seen by one person, whose buttons alone it carries: a requester who is not
 * an agent never sees Update or Assign to me there.
 */
import type { Ticket } from '../../contract/schemas.ts';
import type { CardAudience } from '../builders/card-actions-builder.ts';
import type { IntentDeps } from '../deps.ts';
import { ACTIONS } from '../ids.ts';
import { audienceOf } from '../people/ticket-access.ts';

/**
 * Whether a conversation is a direct message with the app: a DM's id (`D…`), or a person's id,
 * which Slack takes as the app's DM with them.
 */
export function isDirectMessage(channel: string): boolean {
  return /^[DUW]/.test(channel);
}

/** The audience of a card posted for `userId` in `channel`: them alone in a DM, else everyone. */
export async function audienceIn(
  deps: Pick<IntentDeps, 'people'>,
  channel: string,
  userId: string,
  ticket: Ticket,
): Promise<CardAudience> {
  return isDirectMessage(channel) ? audienceOf(deps, userId, ticket) : 'everyone';
}

interface BlockLike {
  type?: string;
  elements?: { action_id?: string }[];
}

/**
 * The audience a card in a DM was posted for, read from the buttons it carries: the person's
 * own buttons say who they are to the ticket, and keep saying it through every status (Update
 * stays while it is open; Mark resolved and Reopen take turns). A refresh that does not know
 * who the DM's person is thus keeps their buttons without asking Slack or the store.
 */
export function audienceShownBy(blocks: readonly unknown[]): CardAudience {
  const actions = new Set(
    (blocks as BlockLike[])
      .filter((block) => block.type === 'actions')
      .flatMap((block) => (block.elements ?? []).map((element) => element.action_id)),
  );
  return {
    isAgent: actions.has(ACTIONS.openUpdate) || actions.has(ACTIONS.assignToMe),
    isRequester: actions.has(ACTIONS.markResolved) || actions.has(ACTIONS.reopenTicket),
  };
}
