/**
 * "Add the details" on the prompt after a filing without a form lacked its desk's required
 * fields (refused by the platform, or filed without them): opens the details form at once, while the trigger id is valid, with the person's words
 * and the desk's fields when they are kept; else it opens with the words and fills the fields in
 * with one views.update. Only the person who filed may open it; a filing no longer kept (a day
 * passed) is said to be gone, with where the words still are.
 */
import type { CustomField } from '../../../contract/schemas.ts';
import {
  buildDeskDetailsGone,
  buildDeskDetailsModal,
  buildDeskDetailsNotYours,
  DESK_FIELDS_LOADING,
  DESK_FIELDS_UNAVAILABLE,
  encodeDeskDetailsMetadata,
  fieldsToAsk,
} from '../../builders/required-fields-prompt-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import {
  isPendingTicket,
  type PendingDetails,
  pendingActor,
  pendingDetailsOf,
} from '../../intents/desk-details.ts';
import { openModalOrTell } from '../../modals/modal-opening.ts';
import { deskFieldsFor } from '../../tickets/desk-fields.ts';
import {
  type ButtonArgs,
  type ButtonDeps,
  clickOf,
  clickPlace,
  tellClicker,
} from './button-click.ts';

/** What the button uses: a button's parts, the desks' fields and the task that fills the form. */
type ListenerDeps = ButtonDeps & Pick<SlackDeps, 'deskFields' | 'tasks'>;

/** Builds the handler of "Add the details". */
export function addDeskDetails(deps: ListenerDeps) {
  return async ({ ack, body }: ButtonArgs): Promise<void> => {
    await ack();
    const pendingKey = clickOf(body).value;
    if (!pendingKey) return;
    const pending = await pendingDetailsOf(deps, pendingKey);
    if (!pending) {
      await tellClicker(deps, body, buildDeskDetailsGone());
      return;
    }
    if (pendingActor(pending) !== body.user.id) {
      await tellClicker(deps, body, buildDeskDetailsNotYours());
      return;
    }
    const kept = deps.deskFields.peek(pending.deskId);
    const deskName =
      (deps.desks.peek() ?? []).find((desk) => desk.slug === pending.deskId)?.name ??
      pending.deskId;
    const form = (fields: readonly CustomField[], notice?: string) =>
      buildDeskDetailsModal({
        privateMetadata: encodeDeskDetailsMetadata(pendingKey),
        deskName,
        fields: fieldsToAsk(fields, pending.keys),
        ...(isPendingTicket(pending)
          ? { ticketId: pending.ticketId, title: '' }
          : {
              title: pending.filing.ticket?.title ?? '',
              description: pending.filing.ticket?.description,
            }),
        notice,
      });
    const opened = await openModalOrTell(
      deps,
      {
        trigger_id: body.trigger_id,
        view: form(kept ?? [], kept ? undefined : DESK_FIELDS_LOADING),
      },
      {
        userId: body.user.id,
        ...clickPlace(body),
        ...(body.response_url ? { responseUrl: body.response_url } : {}),
      },
      wordsOf(pending),
    );
    const viewId = opened?.view?.id;
    if (kept || !viewId) return;
    deps.tasks.run(
      'fill-desk-details',
      async () => {
        const { fields } = await deskFieldsFor(
          deps,
          { userId: body.user.id, request: 'form' },
          pending.deskId,
        );
        const asked = fieldsToAsk(fields, pending.keys);
        await deps.client.views
          .update({
            view_id: viewId,
            ...(opened.view?.hash ? { hash: opened.view.hash } : {}),
            view: form(fields, asked.length > 0 ? undefined : DESK_FIELDS_UNAVAILABLE),
          })
          .catch((error: unknown) => {
            // Submitted or closed before the fields arrived: nothing left to fill in. Slack not
            // taking it leaves the form as it opened; it still files, and a 422 names the fields.
            const code = (error as { data?: { error?: string } }).data?.error;
            if (code !== 'hash_conflict' && code !== 'not_found') throw error;
          });
      },
      { user: body.user.id },
    );
  };
}

// What the person wrote, told back when the form cannot open; a filed ticket keeps its own.
function wordsOf(pending: PendingDetails): string {
  if (isPendingTicket(pending)) return '';
  const ticket = pending.filing.ticket;
  return [ticket?.title, ticket?.description].filter(Boolean).join('\n\n');
}
