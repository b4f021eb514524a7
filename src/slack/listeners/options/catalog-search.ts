/**
 * The request form's catalog search: Slack asks for options on each keystroke and shows
 * nothing unless answered within 3 seconds, so the answer comes from the kept catalog (at most
 * one platform request an hour, `tickets/service-catalog.ts`). Only the very first load can be
 * waited on, and only up to `FIRST_LOAD_WAIT_MS`: past it the person is asked to type again.
 * A keystroke never pays from the person's fair share: the form it is typed in started (and
 * paid for) the catalog's load when it opened.
 */
import type { AllMiddlewareArgs, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import { isServiceDeskError } from '../../../servicedesk/index.ts';
import { catalogOption, placeholderOption } from '../../builders/request-modal-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { searchCatalog } from '../../tickets/service-catalog.ts';

type Args = SlackOptionsMiddlewareArgs<'block_suggestion'> & AllMiddlewareArgs;

/** Longest wait on the catalog's first load: Slack drops answers later than 3 s. */
export const FIRST_LOAD_WAIT_MS = 2_000;

/** Builds the handler of the catalog select's options requests. */
export function catalogSearch(deps: Pick<SlackDeps, 'catalog' | 'logger'>) {
  return async ({ ack, payload }: Args): Promise<void> => {
    let read: Awaited<ReturnType<SlackDeps['catalog']['within']>>;
    try {
      read = await deps.catalog.within(FIRST_LOAD_WAIT_MS);
    } catch (error) {
      if (!isServiceDeskError(error)) throw error;
      deps.logger.warn({ err: error }, 'the service catalog could not be loaded for a search');
      await ack({
        options: [placeholderOption('The catalog cannot be loaded now; try again in a minute')],
      });
      return;
    }
    if (read === 'loading') {
      await ack({ options: [placeholderOption('Loading the catalog… type again in a moment')] });
      return;
    }
    if (read.kind === 'absent') {
      await ack({ options: [placeholderOption('This service desk has no catalog; use /ticket')] });
      return;
    }
    await ack({ options: searchCatalog(read.items, payload.value ?? '').map(catalogOption) });
  };
}
