/**
 * The item chosen in the request form: its description and its desk's fields appear under the
 * select (views.update under the hash of the view the choice was made in, so a newer view is
 * never overwritten), every input keeping what was typed. When Slack refuses the update, the
 * form stays as it was and can still be submitted: the item is filed on its desk, and the
 * platform names any field that desk needs.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  ExternalSelectAction,
  SlackActionMiddlewareArgs,
} from '@slack/bolt';
import type { CatalogItem } from '../../../servicedesk/index.ts';
import type { ViewStateValues } from '../../builders/create-modal-builder.ts';
import { catalogChoice, rebuildForItem } from '../../builders/request-modal-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { VIEWS } from '../../ids.ts';
import { isSlackCallError } from '../../outbox/transient-errors.ts';
import { deskFieldsFor } from '../../tickets/desk-fields.ts';
import { updateOnceMore } from './desk-select-changed.ts';

type Args = SlackActionMiddlewareArgs<BlockAction<ExternalSelectAction>> & AllMiddlewareArgs;

/** Builds the handler of the request form's catalog select. */
export function catalogItemChosen(
  deps: Pick<
    SlackDeps,
    'catalog' | 'client' | 'deskFields' | 'desks' | 'logger' | 'reads' | 'tasks'
  >,
) {
  return async ({ ack, body }: Args): Promise<void> => {
    await ack();
    const view = body.view;
    const option = body.actions[0]?.selected_option;
    const chosen = catalogChoice(option?.value);
    // A placeholder ("loading…") chooses nothing; the form stays as it is.
    if (!view || view.callback_id !== VIEWS.createTicket || !chosen || !option) return;
    deps.tasks.run(
      'show-catalog-item',
      async () => {
        // The kept catalog knows the item; else the option itself says enough to show it.
        const kept = deps.catalog.peek();
        const item: CatalogItem = (kept?.kind === 'items'
          ? kept.items.find((candidate) => candidate.id === chosen.itemId)
          : undefined) ?? {
          id: chosen.itemId,
          name: option.text.text,
          description: null,
          desk_id: chosen.deskSlug ?? null,
        };
        const { fields } = await deskFieldsFor(
          deps,
          { userId: body.user.id, request: 'catalog' },
          item.desk_id,
        );
        const deskName = deps.desks.peek()?.find((desk) => desk.slug === item.desk_id)?.name;
        const update = {
          view_id: view.id,
          hash: view.hash,
          view: rebuildForItem(view, item, deskName, fields, view.state.values as ViewStateValues),
        };
        try {
          await updateOnceMore(deps, update);
        } catch (error) {
          if (!isSlackCallError(error)) throw error;
          const code = (error as { data?: { error?: string } }).data?.error;
          // A newer update, or the form submitted or closed: nothing of this one is wanted.
          if (code === 'hash_conflict' || code === 'not_found') return;
          deps.logger.warn(
            { err: error, item: item.id, view_id: view.id },
            'the chosen catalog item not shown in the request form; it stays as it was',
          );
        }
      },
      { user: body.user.id, item: chosen.itemId },
    );
  };
}
