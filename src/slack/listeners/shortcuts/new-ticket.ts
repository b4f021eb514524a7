/** Global shortcut "New ticket": the create modal from anywhere. */
import type { AllMiddlewareArgs, GlobalShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { openCreateModal } from '../../modals/create-modal.ts';

/** Builds the global shortcut's handler. */
export function newTicketShortcut(
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
  return async ({
    shortcut,
    ack,
  }: SlackShortcutMiddlewareArgs<GlobalShortcut> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    deps.tasks.run(
      'open-create-modal',
      () =>
        openCreateModal(deps, {
          triggerId: shortcut.trigger_id,
          userId: shortcut.user.id,
          metadata: {},
        }),
      { user: shortcut.user.id },
    );
  };
}
