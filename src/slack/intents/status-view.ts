/**
 * The modal that showed "filing…" or "changing…" while a ticket intent ran: it is given the
 * outcome when the intent ends after the submission stopped waiting.
 */
import { buildStatusModal } from '../builders/create-modal-builder.ts';
import type { IntentDeps } from '../deps.ts';

/** Shows the outcome in the intent's modal, if there is one; a modal closed long ago is fine. */
export async function updateStatusView(
  deps: Pick<IntentDeps, 'client'>,
  viewId: string | undefined,
  title: string,
  text: string,
): Promise<void> {
  if (!viewId) return;
  // The person may have closed the modal long ago: the outcome is told in the conversation too.
  await deps.client.views
    .update({ view_id: viewId, view: buildStatusModal(title, text) })
    .catch(() => undefined);
}
