// @ts-check
/**
 * Modals: the top of the visitor's view stack, drawn from its blocks with Slack's header and
 * footer. What the person typed survives a views.update; required inputs are checked before
 * submitting as Slack's client does; the app's field errors are shown under their blocks; and
 * closing tells the app when it asked (view_closed).
 *
 * The dialog is opened non-modally over an inert Slack page, so the simulator's own "You are"
 * stays in reach: becoming someone else hides the form, which waits, typed words and all, in
 * its person's Slack (see `modal.drafts`).
 */
import { blockCtx } from './block-context.js';
import { renderBlocks } from './block-kit.js';
import { fieldValues, requiredErrors } from './block-kit-fields.js';
import { act, actOrTell } from './connection.js';
import { byId, byKey, focusedKey, h } from './dom.js';
import { plainText } from './mrkdwn.js';
import { currentSnapshot, modal, state } from './state.js';

/** @import { Field, FieldValue } from './block-kit-fields.js' */
/** @import { BlockContext } from './block-kit.js' */
/** @import { SlackView } from '../../slack-double/index.ts' */

const dialog = () => byId('modal', HTMLDialogElement);

/** Shows the top of the view stack, or closes the modal when the stack is empty. */
export function renderModal() {
  const modalDialog = dialog();
  const stack = currentSnapshot().modals;
  const top = stack.at(-1);
  if (!top) {
    modal.key = '';
    modal.viewId = '';
    forgetSuggestions(stack);
    if (modalDialog.open) closeDialog(modalDialog);
    return;
  }
  const key = `${state.team}:${state.me}:${top.id}:${top.hash}:${stack.length}`;
  if (key === modal.key && modalDialog.open) return;
  // A views.update keeps what the person typed in inputs that kept their ids, as Slack does.
  /** @type {Map<string, FieldValue>} */
  const kept = new Map();
  if (modal.viewId === top.id) {
    for (const [fieldId, field] of modal.fields) kept.set(fieldId, field.read());
  } else {
    // Back as the person whose form this is: what they had typed before the switch.
    for (const [fieldId, value] of modal.drafts.get(top.id) ?? []) kept.set(fieldId, value);
    modal.drafts.delete(top.id);
    modal.errors = {};
    modal.message = '';
  }
  const firstOpen = !modalDialog.open || modal.viewId !== top.id;
  modal.key = key;
  modal.viewId = top.id;
  drawModal(top, stack, kept);
  if (!modalDialog.open) openDialog(modalDialog);
  if (firstOpen) {
    /** @type {HTMLElement | null} */
    const first = modalDialog.querySelector(
      '.modal-body input, .modal-body textarea, .modal-body select',
    );
    (
      first ?? /** @type {HTMLElement | null} */ (modalDialog.querySelector('.modal-close'))
    )?.focus();
  }
}

/**
 * Draws a view of the stack, restoring the values in `kept` and the focus.
 * @param {SlackView} view
 * @param {SlackView[]} stack
 * @param {Map<string, FieldValue>} [kept]
 */
function drawModal(view, stack, kept = new Map()) {
  const modalDialog = dialog();
  const activeKey = focusedKey(modalDialog);
  /** @type {Map<string, Field>} */
  const fields = new Map();
  modal.fields = fields;
  const suggested = modal.suggested.get(view.id) ?? new Map();
  modal.suggested.set(view.id, suggested);
  /** @type {BlockContext} */
  const ctx = {
    ...blockCtx(),
    fields,
    errors: modal.errors,
    keyPrefix: 'modal:',
    onAction: ({ actionId, blockId, value }) =>
      actOrTell({
        type: 'blockAction',
        as: state.me,
        viewId: view.id,
        actionId,
        blockId,
        ...(value !== undefined ? { value } : {}),
        viewValues: fieldValues(fields),
      }),
    suggested,
    suggest: async ({ actionId, blockId, value }) => {
      const result = await act({
        type: 'blockSuggestion',
        as: state.me,
        viewId: view.id,
        actionId,
        blockId,
        value,
      });
      return result.ok ? (result.options ?? []) : null;
    },
  };
  const body = h('div', { className: 'modal-body' }, renderBlocks(view.blocks, ctx));
  for (const [fieldId, value] of kept) {
    const field = fields.get(fieldId);
    if (field && value !== null) field.write(value);
  }
  const appName = currentSnapshot().app.name;
  const title = plainText(view.title) || appName;
  const stacked = stack.length > 1;
  const root = stack[0]?.id ?? view.id;
  const form = h(
    'form',
    {
      className: 'modal-form',
      novalidate: true,
      onsubmit: (/** @type {SubmitEvent} */ event) => submitModal(event, view),
    },
    h(
      'header',
      { className: 'modal-header' },
      h('span', { className: 'modal-app', 'aria-hidden': 'true' }, appName.slice(0, 1)),
      h('h2', { id: 'modal-title' }, title),
      h(
        'button',
        {
          type: 'button',
          className: 'icon-button modal-close',
          'aria-label': 'Close',
          onclick: () => closeView(root),
        },
        '✕',
      ),
    ),
    body,
    modal.message ? h('p', { className: 'modal-error', role: 'alert' }, modal.message) : null,
    h(
      'footer',
      { className: 'modal-footer' },
      h(
        'button',
        {
          type: 'button',
          className: 'bk-button',
          onclick: () => closeView(stacked ? view.id : root),
        },
        plainText(view.close) || (stacked ? 'Back' : 'Cancel'),
      ),
      view.submit
        ? h(
            'button',
            { type: 'submit', className: 'bk-button primary', disabled: modal.busy },
            modal.busy ? 'Submitting…' : plainText(view.submit),
          )
        : null,
    ),
  );
  modalDialog.replaceChildren(form);
  if (activeKey) byKey(modalDialog, activeKey)?.focus();
}

/**
 * Forgets the options answered for views no longer open, but those of forms waiting for their
 * person (`modal.drafts`).
 * @param {SlackView[]} stack
 */
function forgetSuggestions(stack) {
  for (const viewId of modal.suggested.keys()) {
    if (!stack.some((v) => v.id === viewId) && !modal.drafts.has(viewId)) {
      modal.suggested.delete(viewId);
    }
  }
}

/** Draws the modal's view again, keeping what was typed (after an error, or while busy). */
function redrawModal() {
  const stack = currentSnapshot().modals;
  const view = stack.find((v) => v.id === modal.viewId);
  if (!view) return;
  /** @type {Map<string, FieldValue>} */
  const kept = new Map();
  for (const [fieldId, field] of modal.fields) kept.set(fieldId, field.read());
  drawModal(view, stack, kept);
}

/** Focuses the first field with an error. */
function focusInvalid() {
  /** @type {HTMLElement | null} */ (dialog().querySelector('[aria-invalid="true"]'))?.focus();
}

/**
 * Submits the view (view_submission), unless a required input is empty.
 * @param {SubmitEvent} event
 * @param {SlackView} view
 */
async function submitModal(event, view) {
  event.preventDefault();
  if (modal.busy) return;
  const missing = requiredErrors(modal.fields);
  if (Object.keys(missing).length > 0) {
    modal.errors = missing;
    modal.message = '';
    redrawModal();
    focusInvalid();
    return;
  }
  modal.busy = true;
  modal.errors = {};
  modal.message = '';
  redrawModal();
  const result = await act({
    type: 'submitView',
    as: state.me,
    viewId: view.id,
    values: fieldValues(modal.fields),
  });
  modal.busy = false;
  if (!result.ok) {
    modal.errors = result.errors ?? {};
    modal.message = result.errors && Object.keys(result.errors).length > 0 ? '' : result.error;
    redrawModal();
    focusInvalid();
    return;
  }
  if (result.outcome === 'closed' || result.outcome === 'clear') {
    modal.key = '';
    modal.viewId = '';
    closeDialog(dialog());
    byId('composer-input').focus();
    return;
  }
  redrawModal();
}

/**
 * Closes a view (the whole stack when it is the root), telling the app when it asked.
 * @param {string} viewId
 */
function closeView(viewId) {
  const stack = currentSnapshot().modals;
  if (stack[0]?.id === viewId) {
    modal.key = '';
    modal.viewId = '';
    closeDialog(dialog());
  }
  void actOrTell({ type: 'closeView', as: state.me, viewId });
}

/**
 * Shows the dialog over the Slack page, which it makes inert, as a modal would, but not the
 * simulator's top bar.
 * @param {HTMLDialogElement} modalDialog
 */
function openDialog(modalDialog) {
  byId('layout').inert = true;
  byId('modal-scrim').hidden = false;
  modalDialog.show();
}

/**
 * Hides the dialog and gives the Slack page back. Done here, not on the dialog's close event,
 * which comes a task later: after a switch of person, maybe after their own form opened.
 * @param {HTMLDialogElement} modalDialog
 */
function closeDialog(modalDialog) {
  modalDialog.close();
  byId('layout').inert = false;
  byId('modal-scrim').hidden = true;
}

export function setUpModal() {
  const modalDialog = dialog();
  // Escape closes the whole stack, telling the app if it asked (view_closed), wherever the
  // focus is (a redraw can leave it on the page); a confirmation on top takes its own Escape.
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !modalDialog.open) return;
    if (byId('confirm', HTMLDialogElement).open) return;
    event.preventDefault();
    const root = state.snapshot?.modals[0];
    if (root) closeView(root.id);
  });
}
