// @ts-check
/**
 * Talking to the sandbox: a snapshot is fetched whenever something may have changed (a
 * server-sent "change" event, or an action the visitor took), and actions are posted as the
 * sandbox's typed actions.
 */
import { byId } from './dom.js';
import { toast } from './notices.js';
import { redraw, refreshing, state } from './state.js';
/** @import { ActionResult, SimulatorAction } from '../simulator-actions.ts' */
/** @import { SimulatorSnapshot } from '../simulator-state.ts' */

/** Fetches a fresh snapshot and draws it; a call while one runs fetches once more after it. */
export async function refresh() {
  if (refreshing.running) {
    refreshing.again = true;
    return;
  }
  refreshing.running = true;
  try {
    do {
      refreshing.again = false;
      const asked = { me: state.me, team: state.team };
      const query = new URLSearchParams();
      if (asked.me) query.set('as', asked.me);
      if (asked.team) query.set('team', asked.team);
      if (state.ticket) query.set('ticket', state.ticket);
      const response = await fetch(`/api/state?${query}`);
      if (!response.ok) throw new Error(`the sandbox answered ${response.status}`);
      /** @type {SimulatorSnapshot} */
      const snapshot = await response.json();
      // The visitor became someone else, or went to another workspace, meanwhile: that view
      // is fetched instead, and this one never drawn (its channels would move them elsewhere).
      if (asked.me !== state.me || asked.team !== state.team) {
        refreshing.again = true;
        continue;
      }
      // Someone who is not in the workspace shown cannot be there: the sandbox chose its person.
      state.me = snapshot.me;
      state.team = snapshot.team.id;
      state.snapshot = snapshot;
      redraw();
    } while (refreshing.again);
    setConnection('');
  } catch {
    setConnection('The sandbox is not answering. Is it still running?');
  } finally {
    refreshing.running = false;
  }
}

/**
 * Asks the sandbox to do something, then refreshes.
 * @param {SimulatorAction} action
 * @returns {Promise<ActionResult>}
 */
export async function act(action) {
  try {
    const response = await fetch('/api/actions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // Done in the workspace shown (the sandbox reads `team` beside any action).
      body: JSON.stringify(state.team ? { ...action, team: state.team } : action),
    });
    const result = await response.json();
    return response.ok ? result : { ok: false, error: result.error ?? `error ${response.status}` };
  } catch {
    return { ok: false, error: 'The sandbox is not answering.' };
  } finally {
    void refresh();
  }
}

/**
 * An action whose failure is only worth a toast.
 * @param {SimulatorAction} action
 */
export async function actOrTell(action) {
  const result = await act(action);
  if (!result.ok) toast(result.error);
  return result;
}

/** @param {string} text */
function setConnection(text) {
  byId('connection').textContent = text;
}

/** Listens for the sandbox's changes. */
export function connect() {
  const events = new EventSource('/api/events');
  events.addEventListener('change', () => void refresh());
  events.addEventListener('open', () => setConnection(''));
  events.addEventListener('error', () => setConnection('Reconnecting to the sandbox…'));
}
