// @ts-check
/**
 * Notices: the sandbox's own (Slack's error banners, from the snapshot) and the page's (an
 * action that failed), the newest four, each dismissable.
 */
import { byId, h, replaceChildren } from './dom.js';
import { state, toasts } from './state.js';

/**
 * Shows a notice of the page's own.
 * @param {string} text
 */
export function toast(text) {
  toasts.lastId += 1;
  toasts.list.push({ id: `local-${toasts.lastId}`, text });
  renderNotices();
}

export function renderNotices() {
  const fromServer = (state.snapshot?.notices ?? []).filter((n) => n.id > (state.noticeFloor ?? 0));
  const shown = [...fromServer, ...toasts.list].filter((n) => !state.dismissedNotices.has(n.id));
  replaceChildren(
    byId('notices'),
    shown.slice(-4).map((notice) =>
      h(
        'div',
        { className: 'notice', role: 'alert', dataset: { key: `notice:${notice.id}` } },
        h('span', {}, notice.text),
        h(
          'button',
          {
            type: 'button',
            className: 'icon-button',
            'aria-label': 'Dismiss',
            onclick: () => {
              state.dismissedNotices.add(notice.id);
              renderNotices();
            },
          },
          '✕',
        ),
      ),
    ),
  );
}
