// @ts-check
/**
 * What the app's blocks are drawn with wherever they appear (messages, App Home, modals):
 * names for mentions, the people and channels its selects offer, and the confirmation dialog
 * an element may ask for before it acts.
 */
import { byId, h } from './dom.js';
import { plainText, renderMrkdwn } from './mrkdwn.js';
import { nameCtx } from './names.js';
import { currentSnapshot } from './state.js';
/** @import { BlockContext, ConfirmDialog } from './block-kit.js' */

/**
 * The shared part of a block context; each place adds its fields, errors, key prefix and
 * action.
 * @returns {Pick<BlockContext, 'userName' | 'channelName' | 'people' | 'channels' | 'confirm'>}
 */
export function blockCtx() {
  const snapshot = currentSnapshot();
  return {
    ...nameCtx(),
    people: snapshot.people,
    channels: snapshot.conversations.filter((c) => c.kind === 'channel'),
    confirm: askConfirm,
  };
}

/**
 * Asks the visitor to confirm, as Slack's confirmation dialog does; resolves to their answer.
 * @param {ConfirmDialog} confirm
 * @returns {Promise<boolean>}
 */
export function askConfirm(confirm) {
  const dialog = byId('confirm', HTMLDialogElement);
  return new Promise((resolve) => {
    /** @param {boolean} answer */
    const done = (answer) => {
      dialog.close();
      resolve(answer);
    };
    dialog.replaceChildren(
      h('h2', { id: 'confirm-title' }, plainText(confirm.title) || 'Are you sure?'),
      h('div', { id: 'confirm-text' }, renderMrkdwn(confirm.text?.text ?? '', nameCtx())),
      h(
        'div',
        { className: 'modal-footer' },
        h(
          'button',
          { type: 'button', className: 'bk-button', onclick: () => done(false) },
          plainText(confirm.deny) || 'Cancel',
        ),
        h(
          'button',
          {
            type: 'button',
            className: `bk-button ${confirm.style === 'danger' ? 'danger' : 'primary'}`,
            onclick: () => done(true),
          },
          plainText(confirm.confirm) || 'Yes',
        ),
      ),
    );
    dialog.addEventListener('cancel', () => resolve(false), { once: true });
    dialog.showModal();
  });
}
