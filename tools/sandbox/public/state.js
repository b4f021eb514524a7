// @ts-check
/**
 * Everything on the page that changes, owned here and nowhere else: what the visitor is doing
 * and looking at (`state`), what is drawn (`drawn`, `modal`), the page's own notices (`toasts`)
 * and the refresh loop (`refreshing`). Other modules import these objects and change their
 * fields; none keeps mutable state of its own (but dom.js's id counter and time.js's cache of
 * clock formats, which nothing reads back).
 *
 * A change that should show calls `redraw()`, which runs the drawing app.js set with
 * `drawWith` (render.js's `render`), so the modules that change state need not import the
 * ones that draw it.
 */
/** @import { SimulatorSnapshot } from '../simulator-state.ts' */
/** @import { Field, FieldValue, Option } from './block-kit-fields.js' */
/** @import { PlatformDrawn } from './platform.js' */

/**
 * @typedef {object} PageState
 * @property {string} team The workspace shown, by team id ('' for the sandbox's first).
 * @property {string} me The user id of the person the visitor is.
 * @property {boolean} meChosen Whether the visitor chose that person (else a workspace switch
 *   gave them its first person, who does not follow them back).
 * @property {Map<string, Visit>} visits Where the visitor was in each workspace they left, by
 *   team id, for when they come back (as Slack keeps each workspace's place).
 * @property {string} place Where they are: a channel's id, or 'app' for the app (its DM and
 *   Home).
 * @property {'home' | 'messages'} appTab The app's tab they are on.
 * @property {{ channel: string, ts: string } | null} thread The thread open beside, by its
 *   channel and parent message.
 * @property {string} ticket The ticket chosen on the platform's side ('' follows the newest).
 * @property {SimulatorSnapshot | null} snapshot The latest snapshot, null until the first.
 * @property {number | null} noticeFloor The newest of the sandbox's notices when the page
 *   opened (older ones are not shown); null until the first snapshot.
 * @property {Set<number | string>} dismissedNotices Notices the visitor dismissed, by id.
 * @property {Set<string>} dismissedEphemerals Ephemeral messages the visitor dismissed, by ts.
 * @property {string | null} editing The ts of the message being edited.
 */

/**
 * What the visitor was doing in a workspace when they switched to another.
 * @typedef {object} Visit
 * @property {string} me Whom they were.
 * @property {boolean} chosen Whether they chose that person there.
 * @property {string} place Where they were.
 * @property {'home' | 'messages'} appTab The app's tab they were on.
 * @property {{ channel: string, ts: string } | null} thread The thread open beside.
 */

const params = new URLSearchParams(location.hash.slice(1));

/** @type {PageState} */
export const state = {
  team: params.get('team') ?? '',
  me: params.get('as') ?? '',
  meChosen: true,
  visits: new Map(),
  place: params.get('in') ?? '',
  appTab: 'messages',
  thread: null,
  ticket: '',
  snapshot: null,
  noticeFloor: null,
  dismissedNotices: new Set(),
  dismissedEphemerals: new Set(),
  editing: null,
};

/**
 * The latest snapshot, for code that runs only once there is one (drawing, and what the
 * visitor does with what is drawn); throws before the first.
 * @returns {SimulatorSnapshot}
 */
export function currentSnapshot() {
  if (!state.snapshot) throw new Error('the page has no snapshot yet');
  return state.snapshot;
}

/**
 * What each part of the page was last drawn from, as a key of its inputs: a render skips a part
 * whose key did not change, and '' draws it again.
 * @typedef {object} Drawn
 * @property {string} identities The people in the "You are" menu.
 * @property {string} workspaces The workspaces in the Workspace menu.
 * @property {string} home The App Home.
 * @property {string} conversation The conversation's messages.
 * @property {string} thread The open thread's messages.
 * @property {string} shortcuts The global shortcuts menu.
 * @property {PlatformDrawn} platform The platform panel's parts.
 */

/** @type {Drawn} */
export const drawn = {
  identities: '',
  workspaces: '',
  home: '',
  conversation: '',
  thread: '',
  shortcuts: '',
  platform: { options: '', agents: '', detail: '' },
};

/**
 * The modal on screen.
 * @typedef {object} ModalState
 * @property {string} key What it was drawn from ('' when none is open, or to draw it again).
 * @property {string} viewId The view it shows.
 * @property {Map<string, Field>} fields Its form controls, by `block_id/action_id`.
 * @property {Record<string, string>} errors Errors shown under its blocks, by block id.
 * @property {string} message An error for the whole view.
 * @property {boolean} busy Whether a submission is on its way.
 * @property {Map<string, Map<string, FieldValue>>} drafts What was typed in forms left open
 *   when the visitor became someone else, by view id: Slack keeps a person's open modal.
 * @property {Map<string, Map<string, Option[]>>} suggested The options the app answered for
 *   external selects (block_suggestion), by view id and field key: a redraw keeps the choice.
 */

/** @type {ModalState} */
export const modal = {
  key: '',
  viewId: '',
  fields: new Map(),
  errors: {},
  message: '',
  busy: false,
  drafts: new Map(),
  suggested: new Map(),
};

/**
 * The page's own notices (an action that failed), shown with the sandbox's.
 * @type {{ list: { id: string, text: string }[], lastId: number }}
 */
export const toasts = { list: [], lastId: 0 };

/**
 * The refresh loop: whether a fetch is running, and whether another is wanted after it.
 * @type {{ running: boolean, again: boolean }}
 */
export const refreshing = { running: false, again: false };

/** @type {{ draw: () => void }} */
const page = { draw: () => undefined };

/**
 * Says how the page is drawn from state (once, at start).
 * @param {() => void} draw
 */
export function drawWith(draw) {
  page.draw = draw;
}

/** Draws the page again from state. */
export function redraw() {
  page.draw();
}
