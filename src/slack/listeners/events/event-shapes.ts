/**
 * The shapes of the events the app acts on, checked where they enter. A signed event that does
 * not match (a numeric `user`, a `text` that is not a string) is answered 200 and logged as
 * ignored: answering 500 would make Slack deliver it again and again, and queuing it would
 * only fail later. Unknown fields pass; only what the listeners read is checked.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Logger } from 'pino';
import { z } from 'zod';

const file = z.looseObject({
  name: z.string().optional(),
  title: z.string().optional(),
  permalink: z.string().optional(),
});

const messageFields = {
  user: z.string().optional(),
  text: z.string().optional(),
  ts: z.string().optional(),
  thread_ts: z.string().optional(),
  subtype: z.string().optional(),
  bot_id: z.string().optional(),
  files: z.array(file).optional(),
};

/** A `message` event, any subtype; an edit carries the message before and after. */
export const messageEventShape = z.looseObject({
  channel: z.string(),
  channel_type: z.string().optional(),
  ...messageFields,
  message: z.looseObject(messageFields).optional(),
  previous_message: z.looseObject(messageFields).optional(),
});

/**
 * A `reaction_added` event. A reaction on a message names the message (its channel and ts),
 * which the listener files; a file's or a comment's names no channel and is not acted on.
 */
export const reactionAddedShape = z.looseObject({
  user: z.string(),
  reaction: z.string(),
  item_user: z.string().optional(),
  item: z.union([
    z.looseObject({ type: z.literal('message'), channel: z.string(), ts: z.string() }),
    z.looseObject({ type: z.string().refine((type) => type !== 'message') }),
  ]),
});

/** An `app_home_opened` event. */
export const appHomeOpenedShape = z.looseObject({
  user: z.string(),
  tab: z.string().optional(),
  channel: z.string().optional(),
});

/**
 * An `assistant_thread_started` event: a person opened Slack's AI pane (or a new chat in it),
 * which is a thread in their direct message with the app.
 */
export const assistantThreadStartedShape = z.looseObject({
  assistant_thread: z.looseObject({
    user_id: z.string(),
    channel_id: z.string(),
    thread_ts: z.string(),
  }),
});

/** A `member_joined_channel` or `member_left_channel` event: who, and which channel. */
export const channelMemberShape = z.looseObject({
  user: z.string(),
  channel: z.string(),
});

/**
 * A `link_shared` event: the message (its channel and ts), who posted it, and the links on the
 * app's unfurl domains it holds.
 */
export const linkSharedShape = z.looseObject({
  channel: z.string(),
  user: z.string(),
  message_ts: z.string(),
  source: z.string().optional(),
  links: z.array(z.looseObject({ url: z.string(), domain: z.string().optional() })),
});

/** A `link_shared` event as checked. */
export type LinkSharedShape = z.infer<typeof linkSharedShape>;

/** A `message` event as checked: what its listener may read. */
export type CheckedMessageEvent = z.infer<typeof messageEventShape>;

type EventArgs = SlackEventMiddlewareArgs & AllMiddlewareArgs;

// Logs which fields were wrong (never their values: they are people's words).
function logMismatch(logger: Logger, { event, body }: EventArgs, error: z.ZodError): void {
  // At debug: anyone who can sign a request could fill the log at a higher level.
  logger.debug(
    {
      event_type: (event as { type?: unknown }).type,
      event_id: (body as { event_id?: unknown }).event_id,
      fields: error.issues.map((issue) => issue.path.join('.')),
    },
    'ignored an event that does not have the shape Slack documents',
  );
}

/**
 * A listener middleware that lets an event through only when it has `shape`; otherwise it logs
 * which fields were wrong and ends the event.
 */
export function checkShape(shape: z.ZodType, logger: Logger) {
  return async (args: EventArgs): Promise<void> => {
    const checked = shape.safeParse(args.event);
    if (checked.success) await args.next();
    else logMismatch(logger, args, checked.error);
  };
}

/**
 * A listener that runs only for an event that has `shape`, and is handed the event as checked
 * (typed by the shape, so it reads no field the check did not look at); otherwise it logs which
 * fields were wrong and ends the event.
 */
export function whenShaped<S extends z.ZodType, A extends EventArgs>(
  shape: S,
  logger: Logger,
  listener: (event: z.infer<S>, args: A) => Promise<void>,
): (args: A) => Promise<void> {
  return async (args) => {
    const checked = shape.safeParse(args.event);
    if (checked.success) await listener(checked.data, args);
    else logMismatch(logger, args, checked.error);
  };
}
