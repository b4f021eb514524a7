/**
 * The desk chosen in the create form: the form swaps the previous desk's fields for this desk's
 * in place (views.update), every input keeping what was typed. The update carries the hash of
 * the view the choice was made in, so it never overwrites a newer one (a second choice made
 * meanwhile, the submission's "filing…" view). When Slack refuses the update, the form stays as
 * it was, with everything in it, and can still be submitted: the platform then names any field
 * the new desk needs, and the form shows that on the desk input.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  SlackActionMiddlewareArgs,
  StaticSelectAction,
} from '@slack/bolt';
import { sleep } from '../../../clock.ts';
import { slackRetryAt } from '../../app/slack-clients.ts';
import { rebuildForDesk, type ViewStateValues } from '../../builders/create-modal-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { VIEWS } from '../../ids.ts';
import { isSlackCallError } from '../../outbox/transient-errors.ts';
import { deskFieldsFor } from '../../tickets/desk-fields.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<StaticSelectAction>> & AllMiddlewareArgs;

/** Longest Retry-After the swap waits out once; past it the form stays as it is. */
const RETRY_AFTER_MAX_MS = 3_000;

/** Builds the handler of the create form's desk select. */
export function deskSelectChanged(
  deps: Pick<SlackDeps, 'client' | 'deskFields' | 'logger' | 'reads' | 'tasks'>,
) {
  return async ({ ack, body }: Args): Promise<void> => {
    await ack();
    const view = body.view;
    if (!view || view.callback_id !== VIEWS.createTicket) return;
    const deskSlug = body.actions[0]?.selected_option?.value;
    deps.tasks.run(
      'swap-desk-fields',
      async () => {
        const { fields } = await deskFieldsFor(
          deps,
          { userId: body.user.id, request: 'form' },
          deskSlug,
        );
        const update = {
          view_id: view.id,
          hash: view.hash,
          view: rebuildForDesk(view, fields, view.state.values as ViewStateValues),
        };
        try {
          await updateOnceMore(deps, update);
        } catch (error) {
          if (!isSlackCallError(error)) throw error;
          const code = (error as { data?: { error?: string } }).data?.error;
          // A newer update, or the form submitted or closed: nothing of this one is wanted.
          if (code === 'hash_conflict' || code === 'not_found') return;
          deps.logger.warn(
            { err: error, desk: deskSlug, view_id: view.id },
            'desk fields not swapped into the create form; it stays as it was',
          );
        }
      },
      { user: body.user.id, desk: deskSlug },
    );
  };
}

/**
 * views.update through the interactive client, which answers a 429 at once: a short
 * Retry-After is waited out once (the request form's item choice swaps fields the same way).
 */
export async function updateOnceMore(
  deps: Pick<SlackDeps, 'client'>,
  update: Parameters<SlackDeps['client']['views']['update']>[0],
): Promise<void> {
  try {
    await deps.client.views.update(update);
  } catch (error) {
    const now = Date.now();
    const retryAt = slackRetryAt(error, now);
    if (retryAt === undefined || retryAt - now > RETRY_AFTER_MAX_MS) throw error;
    await sleep(retryAt - now);
    await deps.client.views.update(update);
  }
}
