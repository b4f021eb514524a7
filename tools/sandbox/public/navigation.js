// @ts-check
/**
 * Moving about the page: being someone else, going to a channel or the app, opening an app
 * tab or a thread, editing a message. Each changes state, tells the sandbox what Slack would be
 * told, and redraws.
 */
import { act, refresh } from './connection.js';
import { byId, byKey } from './dom.js';
import { conversation, saveLocation } from './names.js';
import { currentSnapshot, drawn, modal, redraw, state } from './state.js';

/** @import { FieldValue } from './block-kit-fields.js' */

/**
 * Becomes another person: their view is fetched, and on the app its tab is opened for them.
 * What was typed in an open form is kept for when the visitor is its person again, and the
 * open thread stays open wherever the new person can see it too (a channel's, not a DM's).
 * @param {string} userId
 */
export function chooseIdentity(userId) {
  if (userId === state.me) return;
  keepDraft();
  state.me = userId;
  state.meChosen = true;
  showAgain();
}

/**
 * Goes to another workspace of the organization: its channels, DMs and people. The person the
 * visitor chose stays if they are in that workspace too; otherwise the visitor is whom they were
 * there last (or its first person, who does not follow them back). Where they were in each workspace, the open thread and what was
 * typed in an open form are kept for when they come back, as with "You are".
 * @param {string} team
 */
export function chooseWorkspace(team) {
  const snapshot = currentSnapshot();
  if (team === snapshot.team.id) return;
  keepDraft();
  state.visits.set(snapshot.team.id, {
    me: state.me,
    chosen: state.meChosen,
    place: state.place,
    appTab: state.appTab,
    thread: state.thread,
  });
  const visit = state.visits.get(team);
  const people = snapshot.workspaces.find((w) => w.id === team)?.identities ?? [];
  state.team = team;
  if (!(state.meChosen && people.includes(state.me))) {
    const back = visit && people.includes(visit.me) ? visit : undefined;
    state.me = back?.me ?? people[0] ?? '';
    state.meChosen = back?.chosen ?? false;
  }
  state.place = visit?.place ?? '';
  state.appTab = visit?.appTab ?? 'messages';
  state.thread = visit?.thread ?? null;
  state.editing = null;
  drawn.identities = '';
  showAgain();
}

/** Keeps what was typed in the open form, for when its person is back (see `modal.drafts`). */
function keepDraft() {
  if (!modal.viewId) return;
  /** @type {Map<string, FieldValue>} */
  const typed = new Map();
  for (const [fieldId, field] of modal.fields) typed.set(fieldId, field.read());
  modal.drafts.set(modal.viewId, typed);
}

/** Fetches and draws the view of the person now chosen, and opens their app tab if there. */
function showAgain() {
  modal.key = '';
  drawn.conversation = '';
  drawn.home = '';
  drawn.thread = '';
  saveLocation();
  void refresh().then(() => {
    if (state.place === 'app') openAppTab(state.appTab);
  });
}

/**
 * Goes to a channel, or to the app ('app'), opening its first tab as Slack does.
 * @param {string} place
 */
export function go(place) {
  if (place === state.place) return;
  state.place = place;
  state.thread = null;
  if (place === 'app') openAppTab(currentSnapshot().app.homeTabEnabled ? 'home' : 'messages');
  saveLocation();
  redraw();
  byId('composer-input').focus();
}

/**
 * Opens one of the app's tabs, telling the app (app_home_opened).
 * @param {'home' | 'messages'} tab
 */
export function openAppTab(tab) {
  state.appTab = tab;
  void act({ type: 'openAppHome', as: state.me, tab });
}

/**
 * Opens a message's thread beside the conversation.
 * @param {string} channelId
 * @param {string} ts
 */
export function openThread(channelId, ts) {
  state.thread = { channel: channelId, ts };
  const messages = conversation(channelId)?.messages ?? [];
  const ticketId = messages
    .filter((m) => m.ts === ts || m.thread_ts === ts)
    .map((m) => m.metadata?.event_payload?.ticket_id)
    .find((id) => typeof id === 'string');
  // Following a ticket's thread shows that ticket on the platform's side.
  if (ticketId && ticketId !== state.ticket) {
    state.ticket = ticketId;
    void refresh();
  }
  drawn.thread = '';
  redraw();
  byId('thread-input').focus();
}

/** Closes the thread. */
export function closeThread() {
  state.thread = null;
  redraw();
  byId('composer-input').focus();
}

/**
 * Starts editing one of the visitor's messages in place (null stops).
 * @param {string | null} ts
 */
export function startEditing(ts) {
  state.editing = ts;
  drawn.conversation = '';
  drawn.thread = '';
  redraw();
  byKey(document, `${ts}:edit`)?.focus();
}
