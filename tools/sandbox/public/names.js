// @ts-check
/**
 * Names: people and conversations looked up in the snapshot, and the page's location (who the
 * visitor is, and where) kept in the address so a reload or a bookmark returns to it.
 */
import { state } from './state.js';
/** @import { NameContext } from './mrkdwn.js' */

/**
 * A person by user id.
 * @param {string | undefined} id
 */
export function person(id) {
  return state.snapshot?.people.find((p) => p.id === id);
}

/**
 * Names for mentions.
 * @returns {NameContext}
 */
export function nameCtx() {
  return {
    userName: (id) => person(id)?.realName,
    channelName: (id) => state.snapshot?.conversations.find((c) => c.id === id)?.name,
  };
}

/**
 * A conversation (channel or the app's DM) by id.
 * @param {string} id
 */
export function conversation(id) {
  return state.snapshot?.conversations.find((c) => c.id === id);
}

/** The visitor's direct message with the app. */
export function dm() {
  return state.snapshot?.conversations.find((c) => c.kind === 'im');
}

/** The conversation the visitor is in (the app's DM when on the app). */
export function currentConversation() {
  return state.place === 'app' ? dm() : conversation(state.place);
}

/** Puts who the visitor is and where (in which workspace) into the address. */
export function saveLocation() {
  const query = new URLSearchParams({
    ...(state.team ? { team: state.team } : {}),
    as: state.me,
    in: state.place,
  });
  history.replaceState(null, '', `#${query}`);
}
