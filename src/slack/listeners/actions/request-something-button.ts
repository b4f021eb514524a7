/** "Request something" on App Home: the request form with the service catalog. */
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
} from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { openRequestModal } from '../../modals/request-modal.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/** Builds the handler of "Request something". */
export function requestSomethingButton(
  deps: Pick<
    SlackDeps,
    'catalog' | 'client' | 'deskFields' | 'desks' | 'logger' | 'reads' | 'tasks'
  >,
) {
  return async ({ ack, body }: Args): Promise<void> => {
    await ack();
    deps.tasks.run(
      'open-request-modal',
      () =>
        openRequestModal(deps, {
          triggerId: body.trigger_id,
          userId: body.user.id,
          metadata: {},
        }),
      { user: body.user.id },
    );
  };
}
