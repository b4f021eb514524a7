/**
 * "New ticket" on App Home (and on the notice that a ticket is closed): the create modal, the
 * same one /ticket and the global shortcut open. From a closed ticket's notice the title starts
 * as a follow-up to it.
 */

import type { SlackDeps } from '../../deps.ts';
import { openCreateModal } from '../../modals/create-modal.ts';
import { type ButtonArgs, clickedTicketId } from './button-click.ts';

/** Builds the handler of "New ticket". */
export function newTicketButton(
  deps: Pick<
    SlackDeps,
    | 'client'
    | 'deskFields'
    | 'desks'
    | 'logger'
    | 'people'
    | 'reads'
    | 'serviceDesk'
    | 'settings'
    | 'tasks'
  >,
) {
  return async ({ ack, body }: ButtonArgs): Promise<void> => {
    await ack();
    const followUp = clickedTicketId(body);
    deps.tasks.run(
      'open-create-modal',
      () =>
        openCreateModal(deps, {
          triggerId: body.trigger_id,
          userId: body.user.id,
          metadata: {},
          title: followUp ? `Follow-up to ${followUp}` : undefined,
        }),
      { user: body.user.id },
    );
  };
}
