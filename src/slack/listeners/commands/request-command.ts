/**
 * `/ticket request [words]`: the request form with the service catalog, the item best matching
 * the words preselected (`/ticket request laptop`). The card of the ticket goes to the channel
 * the command was used in, as with `/ticket`.
 */
import type { SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { openRequestModal } from '../../modals/request-modal.ts';

/** Whether the command's text (lower case, trimmed) asks for the request form. */
export function isRequestCommand(word: string): boolean {
  return word === 'request' || word.startsWith('request ');
}

/** Opens the request form for the command; call after the ack. */
export function requestCommand(
  deps: Pick<
    SlackDeps,
    'catalog' | 'client' | 'deskFields' | 'desks' | 'logger' | 'reads' | 'tasks'
  >,
  command: SlackCommandMiddlewareArgs['command'],
): void {
  const words = command.text.trim().slice('request'.length).trim();
  deps.tasks.run(
    'open-request-modal',
    () =>
      openRequestModal(deps, {
        triggerId: command.trigger_id,
        userId: command.user_id,
        metadata: { channel: command.channel_id },
        words: words || undefined,
        tellAt: { responseUrl: command.response_url, channel: command.channel_id },
      }),
    { user: command.user_id, channel: command.channel_id },
  );
}
