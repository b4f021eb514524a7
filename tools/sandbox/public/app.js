// @ts-check
/**
 * The Slack simulator page. It renders a snapshot of the Slack double's workspace for the
 * person the visitor has chosen to be, and sends what they do to the sandbox, which sends the
 * app what Slack would. A server-sent "change" event triggers a fresh snapshot, so the app's
 * answers (cards, thread replies, modals, App Home) appear as soon as it makes them.
 *
 * This module starts the page. The page's state is in state.js; talking to the sandbox in
 * connection.js; drawing in render.js (the frame), messages.js, threads.js, composers.js,
 * modals.js, notices.js and platform.js; moving about in navigation.js.
 */
import { setUpComposers, setUpShortcuts } from './composers.js';
import { connect, refresh } from './connection.js';
import { byId } from './dom.js';
import { closeMenus } from './menus.js';
import { setUpModal } from './modals.js';
import { chooseIdentity, chooseWorkspace, openAppTab } from './navigation.js';
import { setUpPlatform } from './platform-forms.js';
import { render } from './render.js';
import { drawWith, state } from './state.js';
import { setUpPane } from './threads.js';

function start() {
  drawWith(render);
  document.querySelector('.skip-link')?.addEventListener('click', (event) => {
    event.preventDefault();
    byId('composer-input').focus();
  });
  const identity = byId('identity', HTMLSelectElement);
  identity.addEventListener('change', () => chooseIdentity(identity.value));
  const workspace = byId('workspace', HTMLSelectElement);
  workspace.addEventListener('change', () => chooseWorkspace(workspace.value));
  document.addEventListener('click', (event) => {
    if (!(event.target instanceof Element) || !event.target.closest('.menu-anchor')) closeMenus();
  });
  setUpComposers();
  setUpShortcuts();
  setUpModal();
  setUpPlatform();
  setUpPane();
  connect();
  void refresh().then(() => {
    // Arriving on the app (a bookmarked #in=app) opens its tab as a click would.
    if (state.place === 'app' && state.snapshot) {
      openAppTab(state.snapshot.app.homeTabEnabled ? 'home' : 'messages');
    }
  });
}

start();
