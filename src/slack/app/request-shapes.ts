/**
 * The outer shapes of the requests the app hands to Bolt: what Bolt itself reads of a body
 * before any middleware runs (an event's `channel`, `user` and `item`, an action list, a view,
 * the user of an interaction) and what every listener of its kind reads first. Bolt dereferences
 * these without checking them, so a signed body with `event: null` or `actions: null` would
 * throw inside Bolt and be answered 500, which Slack delivers again and again. A body that
 * fails here is answered (or acked) at once instead, by both receivers (`slack-http-receiver.ts`,
 * `slack-socket-receiver.ts`). An interaction (an action, a view, an options request, a
 * shortcut) is checked here for every field its listeners read, with the type Slack documents:
 * a button's `value` that is an object, a number or an array is malformed input, answered 200
 * and noted at debug, not a listener's TypeError answered 500. Unknown fields pass; what the
 * event listeners read beyond the envelope is checked where it enters (`event-shapes.ts`).
 */
import { z } from 'zod';

const id = z.string().min(1);
const notNull = z.custom<unknown>((value) => value !== null);
const withId = z.looseObject({ id });
// Slack sends `team: null` and `enterprise: null` for an org-wide install.
const team = withId.nullable().optional();
const user = z.looseObject({ id, team_id: z.string().optional() });

const eventEnvelope = z.looseObject({
  type: z.literal('event_callback'),
  authorizations: z.array(z.looseObject({})).optional(),
  // Bolt looks into these for the conversation and the user (`'id' in channel`, `user.id`,
  // `'channel' in item`), which throws on null; their types are the listeners' to check.
  event: z.looseObject({
    type: id,
    channel: z.union([z.string(), z.looseObject({})]).optional(),
    user: notNull.optional(),
    item: z.looseObject({}).optional(),
    subteam: z.looseObject({}).optional(),
  }),
});

// An option as Slack sends it: its value, and in an action its text (the request form shows it).
const stateOption = z.looseObject({ value: z.string() });
const actionOption = stateOption.extend({ text: z.looseObject({ text: z.string() }) });

// One input's state in `view.state.values`, as the forms read it (`InputState`).
const inputState = z.looseObject({
  type: z.string().optional(),
  value: z.string().nullable().optional(),
  selected_option: stateOption.nullable().optional(),
  selected_options: z.array(stateOption).nullable().optional(),
  selected_date: z.string().nullable().optional(),
  selected_user: z.string().nullable().optional(),
});

// A view's blocks are read back (a desk swap keeps them, a 422 names their inputs).
const viewBlock = z.looseObject({
  type: z.string().optional(),
  block_id: z.string().optional(),
});

const view = z.looseObject({
  id,
  callback_id: z.string(),
  hash: z.string().optional(),
  private_metadata: z.string().optional(),
  blocks: z.array(viewBlock).optional(),
  state: z
    .looseObject({ values: z.record(z.string(), z.record(z.string(), inputState)) })
    .optional(),
});

// What the buttons read of the clicked element.
const action = z.looseObject({
  action_id: id,
  type: z.string().optional(),
  block_id: z.string().optional(),
  value: z.string().optional(),
  action_ts: z.string().optional(),
  selected_option: actionOption.nullable().optional(),
});

// Where a click happened, and the message clicked in (a card is rebuilt from it).
const container = z.looseObject({
  type: z.string().optional(),
  channel_id: z.string().optional(),
  message_ts: z.string().optional(),
  thread_ts: z.string().optional(),
  is_ephemeral: z.boolean().optional(),
});
const clickedMessage = z.looseObject({
  ts: z.string().optional(),
  thread_ts: z.string().optional(),
  text: z.string().optional(),
  blocks: z.array(z.looseObject({})).optional(),
});

const blockActions = z.looseObject({
  type: z.literal('block_actions'),
  user,
  team,
  channel: withId.optional(),
  actions: z.array(action).min(1),
  trigger_id: z.string().optional(),
  response_url: z.string().optional(),
  container: container.optional(),
  message: clickedMessage.optional(),
  view: view.optional(),
});

// An external select's options request: Bolt routes it by `action_id` (and `block_id`), and its
// listener reads what was typed (`value`) and, in a modal, the view.
const blockSuggestion = z.looseObject({
  type: z.literal('block_suggestion'),
  user,
  team,
  channel: withId.optional(),
  action_id: id,
  block_id: z.string(),
  value: z.string(),
  view: view.optional(),
});

const viewSubmission = z.looseObject({
  type: z.literal('view_submission'),
  user,
  team,
  view: view.extend({
    blocks: z.array(viewBlock),
    state: z.looseObject({ values: z.record(z.string(), z.record(z.string(), inputState)) }),
  }),
});

const viewClosed = z.looseObject({ type: z.literal('view_closed'), user, team, view });

const shortcut = z.looseObject({
  type: z.literal('shortcut'),
  user,
  team,
  callback_id: z.string(),
  trigger_id: z.string(),
});

// The message a message shortcut is used on: the ticket is made of it.
const shortcutMessage = z.looseObject({
  ts: id,
  text: z.string().optional(),
  user: z.string().optional(),
  thread_ts: z.string().optional(),
  parent_user_id: z.string().optional(),
  files: z
    .array(
      z.looseObject({
        name: z.string().optional(),
        title: z.string().optional(),
        permalink: z.string().optional(),
      }),
    )
    .optional(),
});

const messageAction = z.looseObject({
  type: z.literal('message_action'),
  user,
  team,
  callback_id: z.string(),
  trigger_id: z.string(),
  action_ts: z.string().optional(),
  response_url: z.string().optional(),
  channel: withId,
  message: shortcutMessage,
});

const slashCommand = z.looseObject({
  command: z.string().startsWith('/'),
  user_id: id,
  channel_id: id,
  text: z.string(),
});

/** The payload types Bolt routes to listeners, each with the shape it must have. */
const ROUTED = new Map<string, z.ZodType>([
  ['event_callback', eventEnvelope],
  ['block_actions', blockActions],
  ['block_suggestion', blockSuggestion],
  ['view_submission', viewSubmission],
  ['view_closed', viewClosed],
  ['shortcut', shortcut],
  ['message_action', messageAction],
]);

/** What the receiver does with a parsed body: hand it to Bolt, answer it at once, or refuse it. */
export type RequestVerdict =
  | { kind: 'route' }
  | { kind: 'unhandled'; type: string; fields: string[] }
  | { kind: 'not_slack' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sorts a parsed request body: a body of a type the app routes and of its shape goes to Bolt
 * (as do Slack's `url_verification` and `ssl_check`, which Bolt answers itself); a Slack payload
 * of another type or shape is `unhandled`, with the fields that were wrong (never their values);
 * anything else, without a `type` or `command`, is not a Slack payload.
 */
export function sortRequest(body: unknown): RequestVerdict {
  if (!isRecord(body)) return { kind: 'not_slack' };
  if (body.ssl_check !== undefined || body.type === 'url_verification') return { kind: 'route' };
  const isCommand = body.command !== undefined && body.type === undefined;
  const type = isCommand ? 'slash_command' : body.type;
  if (typeof type !== 'string') return { kind: 'not_slack' };
  const shape = isCommand ? slashCommand : ROUTED.get(type);
  if (!shape) return { kind: 'unhandled', type, fields: ['type'] };
  const checked = shape.safeParse(body);
  if (checked.success) return { kind: 'route' };
  return {
    kind: 'unhandled',
    type,
    fields: [...new Set(checked.error.issues.map((issue) => issue.path.join('.')))],
  };
}
