/**
 * The driver: plays Slack toward the app. It sends what Slack sends (slash commands, Events API
 * deliveries and retries, shortcuts, view submissions, block actions), signed with the app's
 * signing secret, and keeps the double's workspace in step, so that what a user posts or
 * reacts to is what the app later reads back through the Web API.
 */
import { randomUUID } from 'node:crypto';
import {
  type AppAnswer,
  AppTransport,
  type DeliveryAttempt,
  type RetrySimulation,
} from './app-transport.ts';
import {
  type ElementSite,
  interactiveElements,
  isJsonObject,
  type JsonObject,
} from './block-kit.ts';
import { optionsAnswerProblems } from './block-kit-validation.ts';
import {
  MissingContainerError,
  NotMessageAuthorError,
  RetryLimitError,
  UnknownActionError,
  UnknownChannelError,
  UnknownMessageError,
  UnknownUserError,
  UnknownViewError,
  UserNotInChannelError,
} from './errors.ts';
import type { SignOptions } from './request-signing.ts';
import type { SlackDouble } from './slack-double-server.ts';
import {
  type ActionContainer,
  actionTs,
  blockActionsPayload,
  blockSuggestionPayload,
  type EventEnvelope,
  eventEnvelope,
  globalShortcutPayload,
  messageShortcutPayload,
  newEventId,
  type PayloadContext,
  slashCommandForm,
  viewClosedPayload,
  viewSubmissionPayload,
} from './slack-payloads.ts';
import {
  actionEntry,
  elementState,
  type InputValue,
  type SubmittedValues,
  submissionState,
} from './view-state.ts';
import { type ApiResponse, fail } from './web-api/args.ts';
import { channelType } from './web-api/channel-access.ts';
import { checkView } from './web-api/views-methods.ts';
import type { StepDefinition, WorkflowRun } from './workflow-runs.ts';
import {
  type Conversation,
  newSlackId,
  type SlackMessage,
  type SlackView,
  type ViewStateValues,
  type Workspace,
} from './workspace.ts';

/** How to reach the app and whom to keep in step. */
export interface SlackDriverOptions {
  /** The app's request URL, e.g. `http://127.0.0.1:3000/slack/events`. */
  appUrl: string;
  signingSecret: string;
  double: SlackDouble;
  /** The deprecated verification token Slack still puts in payloads. */
  verificationToken?: string;
  /** Deliver every event like Slack, retrying unacknowledged ones; off unless given. */
  simulateSlackRetries?: RetrySimulation;
  /** The clock for signature timestamps (the app checks them against its own). */
  now?: () => number;
  /** Bound on a single request to the app; 10 s by default. */
  requestTimeoutMs?: number;
  /** The workspace whose people the driver plays (the double's first by default). */
  workspace?: Workspace;
}

/** The result of a slash command: the app's ack, and the trigger and response_url it was given. */
export interface SlashCommandResult extends AppAnswer {
  triggerId: string;
  responseUrl: string;
  form: Record<string, string>;
}

/** How an event is delivered. */
export interface EventOptions extends SignOptions {
  /** Reuse an event id (as a retry does); new otherwise. */
  eventId?: string;
  /** Send as retry number N (1..3) with the retry headers. */
  retryNum?: number;
  /** `X-Slack-Retry-Reason` of a retry; http_timeout by default. */
  retryReason?: string;
  /** Override the driver's retry simulation for this delivery; false turns it off. */
  simulateSlackRetries?: RetrySimulation | false;
}

/**
 * One event delivery. With a retry simulation, `attempts` lists each try and the rest is the
 * app's last answer; `status` is 0 when the app never answered in time.
 */
export interface EventDelivery extends AppAnswer {
  eventId: string;
  envelope: EventEnvelope;
  attempts?: DeliveryAttempt[];
}

/** The result of an interaction: the app's ack, the payload sent, and what it carried. */
export interface InteractionResult extends AppAnswer {
  payload: JsonObject;
  triggerId: string;
  responseUrl?: string;
}

/** The result of a view submission, with what Slack did on the app's `response_action`. */
export interface ViewSubmissionResult extends InteractionResult {
  /** The `response_action` the app acked with (errors, update, push, clear), if any. */
  responseAction?: string;
  /** Slack's refusal of the response_action (an invalid view, unknown block ids...). */
  responseActionError?: ApiResponse;
  /** The id of a view pushed by `response_action: 'push'`. */
  pushedViewId?: string;
}

/**
 * The result of typing into an external select: the app's answer and the options Slack shows,
 * none when the answer came after Slack's 3 seconds, was not a 200, or was refused
 * (`problems`, as Slack's validation words them). Nothing is sent (`sent: false`) while fewer
 * characters than the element's `min_query_length` (Slack's default 3) are typed.
 */
export interface BlockSuggestionResult extends AppAnswer {
  sent: boolean;
  payload?: JsonObject;
  options: JsonObject[];
  problems: string[];
}

/** Slack waits this long for an options answer, then shows none. */
export const OPTIONS_ANSWER_MS = 3_000;
// Slack's default `min_query_length` of an external select.
const DEFAULT_MIN_QUERY_LENGTH = 3;

/** A message a user wrote, and its delivery to the app when the bot is in the channel. */
export interface UserMessageResult {
  ts: string;
  message: SlackMessage;
  delivery?: EventDelivery;
  /** The `link_shared` delivery, when the message held links on the app's unfurl domains. */
  linkShared?: EventDelivery;
}

const FORM = 'application/x-www-form-urlencoded';

function signOnly(options: SignOptions): SignOptions {
  const { badSignature, staleTimestamp, unsigned } = options;
  return { badSignature, staleTimestamp, unsigned };
}

function richTextBlocks(text: string, blockId: string): JsonObject[] {
  return [
    {
      type: 'rich_text',
      block_id: blockId,
      elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }],
    },
  ];
}

// The options of a valid answer, grouped ones too, in order.
function answeredOptions(body: unknown): JsonObject[] {
  if (!isJsonObject(body)) return [];
  const options = Array.isArray(body.options) ? body.options.filter(isJsonObject) : [];
  const groups = Array.isArray(body.option_groups) ? body.option_groups.filter(isJsonObject) : [];
  for (const group of groups) {
    if (Array.isArray(group.options)) options.push(...group.options.filter(isJsonObject));
  }
  return options;
}

function noAnswer(attempts: DeliveryAttempt[]): AppAnswer {
  return { status: 0, headers: {}, text: '', body: undefined, ackMs: attempts.at(-1)?.ackMs ?? 0 };
}

/** Plays Slack toward the app. Close it when done. */
export class SlackDriver {
  readonly double: SlackDouble;
  readonly #transport: AppTransport;
  readonly #context: PayloadContext;
  readonly #retrySimulation: RetrySimulation | undefined;
  /** The options the app last answered for an external select, by view and action id. */
  readonly #answeredOptions = new Map<string, JsonObject[]>();

  constructor(options: SlackDriverOptions) {
    this.double = options.double;
    this.#transport = new AppTransport({
      appUrl: options.appUrl,
      signingSecret: options.signingSecret,
      ...(options.now ? { now: options.now } : {}),
      ...(options.requestTimeoutMs !== undefined
        ? { requestTimeoutMs: options.requestTimeoutMs }
        : {}),
    });
    this.#context = {
      workspace: options.workspace ?? options.double.workspace,
      verificationToken: options.verificationToken ?? 'dbl-verification-token',
    };
    this.#retrySimulation = options.simulateSlackRetries;
  }

  get #workspace() {
    return this.#context.workspace;
  }

  /** Closes the driver's connections to the app. */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  // ---- lookups that fail loudly on a test's typo ------------------------------------------

  #conversation(channelId: string): Conversation {
    const conversation = this.#workspace.conversation(channelId);
    if (!conversation) throw new UnknownChannelError(channelId);
    return conversation;
  }

  #requireUser(userId: string): void {
    if (!this.#workspace.user(userId)) throw new UnknownUserError(userId);
  }

  #memberConversation(userId: string, channelId: string): Conversation {
    this.#requireUser(userId);
    const conversation = this.#conversation(channelId);
    if (!conversation.members.includes(userId)) throw new UserNotInChannelError(userId, channelId);
    return conversation;
  }

  #botIsIn(conversation: Conversation): boolean {
    return conversation.members.includes(this.#workspace.botUserId);
  }

  // ---- slash commands ---------------------------------------------------------------------

  /** A user runs a slash command (`/ticket` by default) in a channel they are in. */
  async slashCommand(
    input: { userId: string; channelId: string; text?: string; command?: string },
    sign: SignOptions = {},
  ): Promise<SlashCommandResult> {
    const conversation = this.#memberConversation(input.userId, input.channelId);
    const triggerId = this.#workspace.issueTrigger(input.userId);
    const responseUrl = this.double.issueResponseUrl({
      source: 'slash_command',
      userId: input.userId,
      channelId: conversation.id,
    });
    const form = slashCommandForm(this.#context, {
      userId: input.userId,
      conversation,
      command: input.command ?? '/ticket',
      text: input.text ?? '',
      triggerId,
      responseUrl,
    });
    const answer = await this.#transport.post({
      body: new URLSearchParams(form).toString(),
      contentType: FORM,
      sign: signOnly(sign),
    });
    return { ...answer, triggerId, responseUrl, form };
  }

  // ---- Events API -------------------------------------------------------------------------

  /** The envelope an event travels in; the same envelope is what every retry resends. */
  envelope(event: JsonObject, eventId: string = newEventId()): EventEnvelope {
    return eventEnvelope(this.#context, event, eventId);
  }

  /** Delivers one event in an `event_callback` envelope. */
  async event(event: JsonObject, options: EventOptions = {}): Promise<EventDelivery> {
    return this.#deliver(this.envelope(event, options.eventId), options);
  }

  async #deliver(envelope: EventEnvelope, options: EventOptions): Promise<EventDelivery> {
    const headers: Record<string, string> = {};
    if (options.retryNum !== undefined && options.retryNum > 0) {
      headers['x-slack-retry-num'] = String(options.retryNum);
      headers['x-slack-retry-reason'] = options.retryReason ?? 'http_timeout';
    }
    const outgoing = {
      body: JSON.stringify(envelope),
      contentType: 'application/json',
      headers,
      sign: signOnly(options),
    };
    const simulation =
      options.simulateSlackRetries === undefined
        ? this.#retrySimulation
        : options.simulateSlackRetries || undefined;
    if (simulation) {
      const { answer, attempts } = await this.#transport.deliverLikeSlack(outgoing, simulation);
      return { ...(answer ?? noAnswer(attempts)), eventId: envelope.event_id, envelope, attempts };
    }
    const answer = await this.#transport.post(outgoing);
    return { ...answer, eventId: envelope.event_id, envelope };
  }

  /**
   * Delivers the same envelope (same event_id) `times` times: the first plain, the others as
   * retries 1, 2, 3 with `X-Slack-Retry-Num`/`-Reason`. Slack never makes more than 4 tries.
   * One after another unless `concurrent`, which is how two replicas would see them.
   */
  async deliverWithRetries(
    event: JsonObject,
    times: number,
    options: Omit<EventOptions, 'retryNum' | 'simulateSlackRetries'> & {
      concurrent?: boolean;
    } = {},
  ): Promise<EventDelivery[]> {
    if (times > 4) throw new RetryLimitError(times);
    if (!Number.isInteger(times) || times < 1) throw new RangeError('times must be 1 to 4');
    const envelope = this.envelope(event, options.eventId);
    const deliver = (retryNum: number) =>
      this.#deliver(envelope, { ...options, retryNum, simulateSlackRetries: false });
    const retryNums = Array.from({ length: times }, (_, retryNum) => retryNum);
    if (options.concurrent) return Promise.all(retryNums.map(deliver));
    const deliveries: EventDelivery[] = [];
    for (const retryNum of retryNums) deliveries.push(await deliver(retryNum));
    return deliveries;
  }

  // ---- what users do, kept in the workspace -----------------------------------------------

  /**
   * A user posts a message (in a thread with `threadTs`). It is stored with a new ts and, when
   * the bot is in the conversation, delivered as a `message` event with its `channel_type`.
   */
  async userPosts(
    input: {
      userId: string;
      channelId: string;
      text: string;
      threadTs?: string;
      blocks?: unknown[];
    },
    options: EventOptions = {},
  ): Promise<UserMessageResult> {
    const workspace = this.#workspace;
    const conversation = this.#memberConversation(input.userId, input.channelId);
    const stored = workspace.postMessage(conversation.id, {
      user: input.userId,
      text: input.text,
      team: workspace.team.id,
      client_msg_id: randomUUID(),
      blocks: input.blocks ?? richTextBlocks(input.text, workspace.newElementId()),
      ...(input.threadTs !== undefined ? { thread_ts: input.threadTs } : {}),
    });
    const result: UserMessageResult = { ts: stored.ts, message: stored };
    if (this.#botIsIn(conversation)) {
      const event: JsonObject = {
        ...stored,
        channel: conversation.id,
        event_ts: stored.ts,
        channel_type: channelType(conversation),
      };
      result.delivery = await this.event(event, options);
    }
    const linkShared = this.#linkShared(conversation, stored);
    if (linkShared) result.linkShared = await this.event(linkShared, options);
    return result;
  }

  /**
   * The `link_shared` event Slack sends for a posted message with links on the app's unfurl
   * domains: in a public channel whether or not the app is in it, elsewhere only where it is.
   */
  #linkShared(conversation: Conversation, message: SlackMessage): JsonObject | undefined {
    const workspace = this.#workspace;
    const links = workspace.linksToUnfurl(message.text);
    if (links.length === 0) return undefined;
    const isMember = this.#botIsIn(conversation);
    if (!isMember && (conversation.isPrivate || conversation.isIm || conversation.isMpim))
      return undefined;
    workspace.noteSharedLinks(
      conversation.id,
      message.ts,
      links.map((link) => link.url),
    );
    const event: JsonObject = {
      type: 'link_shared',
      channel: conversation.id,
      is_bot_user_member: isMember,
      user: message.user ?? '',
      message_ts: message.ts,
      unfurl_id: `${conversation.id}.${message.ts}.${randomUUID().replace(/-/g, '')}`,
      source: 'conversations_history',
      links,
      event_ts: workspace.nextTs(),
    };
    if (message.thread_ts !== undefined) event.thread_ts = message.thread_ts;
    return event;
  }

  /**
   * Delivers the `message` event Slack sends for a message already stored, such as the app's
   * own post (with its `bot_id` and metadata), so that echo handling can be tested. Nothing is
   * delivered when the bot is not in the conversation.
   */
  async messageEcho(
    input: { channelId: string; ts: string },
    options: EventOptions = {},
  ): Promise<EventDelivery | undefined> {
    const conversation = this.#conversation(input.channelId);
    const message = this.#workspace.message(conversation.id, input.ts);
    if (!message) throw new UnknownMessageError(conversation.id, input.ts);
    if (!this.#botIsIn(conversation)) return undefined;
    const event: JsonObject = {
      ...message,
      channel: conversation.id,
      event_ts: message.ts,
      channel_type: channelType(conversation),
    };
    return this.event(event, options);
  }

  /** A user edits their message: stored, and delivered as `message_changed` to a bot in the channel. */
  async userEdits(
    input: { userId: string; channelId: string; ts: string; text: string },
    options: EventOptions = {},
  ): Promise<{ message: SlackMessage; delivery?: EventDelivery }> {
    const workspace = this.#workspace;
    const conversation = this.#memberConversation(input.userId, input.channelId);
    const previous = workspace.message(conversation.id, input.ts);
    if (!previous) throw new UnknownMessageError(conversation.id, input.ts);
    if (previous.user !== input.userId) throw new NotMessageAuthorError(input.userId, input.ts);
    const editTs = workspace.nextTs();
    const message =
      workspace.updateMessage(conversation.id, input.ts, {
        text: input.text,
        blocks: richTextBlocks(input.text, workspace.newElementId()),
        edited: { user: input.userId, ts: editTs },
      }) ?? previous;
    if (!this.#botIsIn(conversation)) return { message };
    const event: JsonObject = {
      type: 'message',
      subtype: 'message_changed',
      hidden: true,
      channel: conversation.id,
      ts: editTs,
      event_ts: editTs,
      channel_type: channelType(conversation),
      message: { ...message, source_team: workspace.team.id, user_team: workspace.team.id },
      previous_message: previous,
    };
    return { message, delivery: await this.event(event, options) };
  }

  /**
   * A user adds an emoji to a message: stored, and delivered as `reaction_added` (with `item`
   * and `item_user`) to a bot in the channel. Adding the same emoji twice does nothing, as in Slack.
   */
  async userReacts(
    input: { userId: string; channelId: string; ts: string; reaction: string },
    options: EventOptions = {},
  ): Promise<{ added: boolean; delivery?: EventDelivery }> {
    const workspace = this.#workspace;
    const conversation = this.#memberConversation(input.userId, input.channelId);
    const message = workspace.message(conversation.id, input.ts);
    if (!message) throw new UnknownMessageError(conversation.id, input.ts);
    const added = workspace.addReaction(conversation.id, input.ts, input.reaction, input.userId);
    if (added !== 'ok' || !this.#botIsIn(conversation)) return { added: added === 'ok' };
    const event: JsonObject = {
      type: 'reaction_added',
      user: input.userId,
      reaction: input.reaction,
      item: { type: 'message', channel: conversation.id, ts: input.ts },
      event_ts: workspace.nextTs(),
    };
    const author = message.user ?? message.bot_id;
    if (author !== undefined) event.item_user = author;
    return { added: true, delivery: await this.event(event, options) };
  }

  /**
   * A user joins a channel (or is invited to it): stored, and delivered as
   * `member_joined_channel` to a bot in the channel, as Slack does.
   */
  async userJoins(
    input: { userId: string; channelId: string },
    options: EventOptions = {},
  ): Promise<EventDelivery | undefined> {
    this.#requireUser(input.userId);
    const conversation = this.#conversation(input.channelId);
    if (!this.#workspace.addMember(conversation.id, input.userId)) return undefined;
    return this.#membershipEvent('member_joined_channel', input, conversation, options);
  }

  /**
   * A user leaves a channel (or is removed from it): stored, and delivered as
   * `member_left_channel` to a bot in the channel, as Slack does.
   */
  async userLeaves(
    input: { userId: string; channelId: string },
    options: EventOptions = {},
  ): Promise<EventDelivery | undefined> {
    const conversation = this.#memberConversation(input.userId, input.channelId);
    this.#workspace.removeMember(conversation.id, input.userId);
    return this.#membershipEvent('member_left_channel', input, conversation, options);
  }

  async #membershipEvent(
    type: 'member_joined_channel' | 'member_left_channel',
    input: { userId: string },
    conversation: Conversation,
    options: EventOptions,
  ): Promise<EventDelivery | undefined> {
    if (!this.#botIsIn(conversation)) return undefined;
    // Slack's channel_type here: C for a public channel, G for a private one.
    const event: JsonObject = {
      type,
      user: input.userId,
      channel: conversation.id,
      channel_type: conversation.isPrivate ? 'G' : 'C',
      team: this.#workspace.team.id,
      event_ts: this.#workspace.nextTs(),
    };
    return this.event(event, options);
  }

  /**
   * A user opens the app's Home or Messages tab: delivered as `app_home_opened` with their DM
   * with the app and, once published, their Home view. Slack sends it only to an app that
   * subscribes to the event; the caller decides that from the manifest.
   */
  async appHomeOpened(
    input: { userId: string; tab?: 'home' | 'messages' },
    options: EventOptions = {},
  ): Promise<EventDelivery> {
    this.#requireUser(input.userId);
    const workspace = this.#workspace;
    const event: JsonObject = {
      type: 'app_home_opened',
      user: input.userId,
      channel: workspace.openIm(input.userId),
      tab: input.tab ?? 'home',
      event_ts: workspace.nextTs(),
    };
    const home = workspace.homeView(input.userId);
    if (home) event.view = home;
    return this.event(event, options);
  }

  // ---- Slack's AI pane ------------------------------------------------------------------------

  /**
   * A user opens the app in Slack's AI pane (or starts a new chat there): a new thread in their
   * DM with the app, delivered as `assistant_thread_started` with its `assistant_thread` (the
   * conversation they were looking at, `contextChannelId`, as its context). Slack sends it only
   * to an app with the pane (`assistant_view`) that subscribes to the event; the caller decides
   * that from the manifest. What they then write there is `userPosts` with the thread's ts.
   */
  async userOpensPane(
    input: { userId: string; contextChannelId?: string },
    options: EventOptions = {},
  ): Promise<{ channel: string; threadTs: string; delivery: EventDelivery }> {
    this.#requireUser(input.userId);
    const thread = this.#workspace.openAssistantThread(input.userId);
    const delivery = await this.paneOpened(thread, input.contextChannelId, options);
    return { channel: thread.channel, threadTs: thread.threadTs, delivery };
  }

  /**
   * Delivers `assistant_thread_started` for a pane conversation already made
   * (`workspace.openAssistantThread`), for a caller that shows the pane before the app answers.
   */
  async paneOpened(
    thread: { channel: string; threadTs: string; userId: string },
    contextChannelId?: string,
    options: EventOptions = {},
  ): Promise<EventDelivery> {
    const workspace = this.#workspace;
    const event: JsonObject = {
      type: 'assistant_thread_started',
      assistant_thread: {
        user_id: thread.userId,
        context: {
          ...(contextChannelId ? { channel_id: contextChannelId } : {}),
          team_id: workspace.team.id,
          enterprise_id: workspace.enterpriseId ?? null,
        },
        channel_id: thread.channel,
        thread_ts: thread.threadTs,
      },
      event_ts: workspace.nextTs(),
    };
    return this.event(event, options);
  }

  // ---- interactivity ------------------------------------------------------------------------

  async #sendInteraction(payload: JsonObject, sign: SignOptions): Promise<AppAnswer> {
    return this.#transport.post({
      body: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      contentType: FORM,
      sign: signOnly(sign),
    });
  }

  /** A user runs a message shortcut on a stored message. */
  async messageShortcut(
    input: { callbackId: string; userId: string; channelId: string; messageTs: string },
    sign: SignOptions = {},
  ): Promise<InteractionResult> {
    this.#requireUser(input.userId);
    const conversation = this.#conversation(input.channelId);
    const message = this.#workspace.message(conversation.id, input.messageTs);
    if (!message) throw new UnknownMessageError(conversation.id, input.messageTs);
    const triggerId = this.#workspace.issueTrigger(input.userId);
    const responseUrl = this.double.issueResponseUrl({
      source: 'message_action',
      userId: input.userId,
      channelId: conversation.id,
      messageTs: message.ts,
    });
    const payload = messageShortcutPayload(this.#context, {
      callbackId: input.callbackId,
      userId: input.userId,
      conversation,
      message,
      triggerId,
      responseUrl,
    });
    return { ...(await this.#sendInteraction(payload, sign)), payload, triggerId, responseUrl };
  }

  /** A user runs a global shortcut. */
  async globalShortcut(
    input: { callbackId: string; userId: string },
    sign: SignOptions = {},
  ): Promise<InteractionResult> {
    this.#requireUser(input.userId);
    const triggerId = this.#workspace.issueTrigger(input.userId);
    const payload = globalShortcutPayload(this.#context, { ...input, triggerId });
    return { ...(await this.#sendInteraction(payload, sign)), payload, triggerId };
  }

  /**
   * A user submits an open view with these values (by action_id, or an input's block_id):
   * `view.state.values` is built in Slack's shapes from the stored view's elements, the view's
   * id, hash, callback_id and private_metadata travel along, and the app's ack is applied as
   * Slack would (close, errors, update, push, clear).
   */
  async viewSubmission(
    input: {
      viewId: string;
      userId?: string;
      values?: SubmittedValues;
      allowEmptyRequired?: boolean;
    },
    sign: SignOptions = {},
  ): Promise<ViewSubmissionResult> {
    const workspace = this.#workspace;
    const view = workspace.view(input.viewId);
    if (!view) throw new UnknownViewError(input.viewId);
    const userId = input.userId ?? workspace.viewOwner(view.id) ?? '';
    this.#requireUser(userId);
    const state = submissionState(view, input.values ?? {}, {
      allowEmptyRequired: input.allowEmptyRequired ?? false,
      answered: (actionId) => this.#answeredOptions.get(`${view.id}:${actionId}`),
    });
    workspace.setViewState(view.id, state);
    const submitted: SlackView = { ...view, state: { values: state } };
    const triggerId = this.#workspace.issueTrigger(userId);
    const payload = viewSubmissionPayload(this.#context, { userId, view: submitted, triggerId });
    const answer = await this.#sendInteraction(payload, sign);
    return { ...answer, payload, triggerId, ...this.#applyViewAck(submitted, userId, answer) };
  }

  /**
   * A user closes a modal (Cancel, Escape or the X): it leaves the workspace with any view
   * pushed above it, and the app hears `view_closed` only when the view asked for
   * `notify_on_close`, as in Slack. Undefined when nothing was sent.
   */
  async viewClosed(
    input: { viewId: string; userId?: string },
    sign: SignOptions = {},
  ): Promise<(AppAnswer & { payload: JsonObject }) | undefined> {
    const workspace = this.#workspace;
    const view = workspace.view(input.viewId);
    if (!view) throw new UnknownViewError(input.viewId);
    const userId = input.userId ?? workspace.viewOwner(view.id) ?? '';
    this.#requireUser(userId);
    workspace.closeView(view.id);
    if (!view.notify_on_close) return undefined;
    const payload = viewClosedPayload(this.#context, { userId, view, isCleared: false });
    return { ...(await this.#sendInteraction(payload, sign)), payload };
  }

  #applyViewAck(
    view: SlackView,
    userId: string,
    answer: AppAnswer,
  ): Pick<ViewSubmissionResult, 'responseAction' | 'responseActionError' | 'pushedViewId'> {
    // Anything but a 200 leaves the modal open with Slack's own error shown.
    if (answer.status !== 200) return {};
    const body = isJsonObject(answer.body) ? answer.body : {};
    const action = body.response_action;
    const workspace = this.#workspace;
    if (action === undefined) {
      workspace.closeView(view.id);
      return {};
    }
    if (action === 'clear') {
      workspace.clearModals(userId);
      return { responseAction: action };
    }
    if (action === 'errors') {
      const inputIds = new Set(
        interactiveElements(view.blocks)
          .filter((site) => site.inInput)
          .map((site) => site.blockId),
      );
      const errors = isJsonObject(body.errors) ? body.errors : {};
      const unknown = Object.keys(errors).filter((blockId) => !inputIds.has(blockId));
      if (Object.keys(errors).length === 0 || unknown.length > 0) {
        const messages = unknown.map(
          (id) => `[ERROR] no input block with block_id ${id} [json-pointer:/errors]`,
        );
        return { responseAction: action, responseActionError: fail('invalid_arguments', messages) };
      }
      return { responseAction: action };
    }
    if (action === 'update' || action === 'push') {
      const checked = checkView(
        workspace,
        body.view,
        'modal',
        action === 'update' ? view.id : undefined,
      );
      if ('failure' in checked)
        return { responseAction: action, responseActionError: checked.failure };
      if (action === 'update') {
        workspace.updateView(view.id, checked.input);
        return { responseAction: action };
      }
      const pushed = workspace.pushModal(userId, checked.input);
      if (pushed === 'push_limit_reached') {
        return { responseAction: action, responseActionError: fail(pushed) };
      }
      return { responseAction: action, pushedViewId: pushed.id };
    }
    return { responseAction: String(action), responseActionError: fail('invalid_response_action') };
  }

  /**
   * A user types `value` into an external select of a view: Slack asks the app for options
   * (`block_suggestion`) and shows what it answered within 3 seconds, if Slack accepts it. The
   * options shown are remembered, so that choosing one (`blockAction`) sends it whole.
   */
  async blockSuggestion(
    input: { userId: string; viewId: string; actionId: string; blockId?: string; value: string },
    sign: SignOptions = {},
  ): Promise<BlockSuggestionResult> {
    this.#requireUser(input.userId);
    const view = this.#workspace.view(input.viewId);
    if (!view) throw new UnknownViewError(input.viewId);
    const site = interactiveElements(view.blocks).find(
      (s) =>
        s.actionId === input.actionId &&
        (input.blockId === undefined || s.blockId === input.blockId) &&
        (s.element.type === 'external_select' || s.element.type === 'multi_external_select'),
    );
    if (!site) throw new UnknownActionError(input.actionId, `view ${view.id} (external select)`);
    const minLength =
      typeof site.element.min_query_length === 'number'
        ? site.element.min_query_length
        : DEFAULT_MIN_QUERY_LENGTH;
    if (input.value.length < minLength) {
      return { ...noAnswer([]), sent: false, options: [], problems: [] };
    }
    const payload = blockSuggestionPayload(this.#context, {
      userId: input.userId,
      view,
      actionId: site.actionId,
      blockId: site.blockId,
      value: input.value,
    });
    const answer = await this.#sendInteraction(payload, sign);
    const problems =
      answer.status !== 200
        ? [`[ERROR] the app answered ${answer.status}`]
        : answer.ackMs > OPTIONS_ANSWER_MS
          ? [`[ERROR] the app answered after ${answer.ackMs} ms; Slack waits ${OPTIONS_ANSWER_MS}`]
          : optionsAnswerProblems(answer.body);
    const options = problems.length > 0 ? [] : answeredOptions(answer.body);
    this.#answeredOptions.set(`${view.id}:${site.actionId}`, options);
    return { ...answer, sent: true, payload, options, problems };
  }

  /**
   * A user acts on an interactive element (button, select...) found by `actionId` in a view
   * (`viewId`) or in a stored or ephemeral message (`channelId` + `messageTs`). `value` is the
   * chosen option value, user id, date...; a button sends its own value.
   */
  async blockAction(
    input: {
      userId: string;
      actionId: string;
      blockId?: string;
      value?: InputValue;
      viewId?: string;
      channelId?: string;
      messageTs?: string;
    },
    sign: SignOptions = {},
  ): Promise<InteractionResult> {
    this.#requireUser(input.userId);
    const { container, site, responseUrl } = this.#actionContainer(input);
    const answered =
      input.viewId === undefined
        ? undefined
        : this.#answeredOptions.get(`${input.viewId}:${site.actionId}`);
    const action = actionEntry(site, actionTs(this.#workspace), input.value, answered);
    const triggerId = this.#workspace.issueTrigger(input.userId);
    const payload = blockActionsPayload(this.#context, {
      userId: input.userId,
      container,
      action,
      triggerId,
    });
    const answer = await this.#sendInteraction(payload, sign);
    return { ...answer, payload, triggerId, ...(responseUrl ? { responseUrl } : {}) };
  }

  #actionContainer(input: {
    userId: string;
    actionId: string;
    blockId?: string;
    value?: InputValue;
    viewId?: string;
    channelId?: string;
    messageTs?: string;
  }): { container: ActionContainer; site: ElementSite; responseUrl?: string } {
    const workspace = this.#workspace;
    const find = (blocks: readonly unknown[], where: string): ElementSite => {
      const site = interactiveElements(blocks).find(
        (s) =>
          s.actionId === input.actionId &&
          (input.blockId === undefined || s.blockId === input.blockId),
      );
      if (!site) throw new UnknownActionError(input.actionId, where);
      return site;
    };
    if (input.viewId !== undefined) {
      const view = workspace.view(input.viewId);
      if (!view) throw new UnknownViewError(input.viewId);
      const site = find(view.blocks, `view ${view.id}`);
      if (site.element.type !== 'button') {
        // The choice becomes part of the view's state, as it does in Slack's client.
        const values: ViewStateValues = structuredClone(view.state.values);
        values[site.blockId] = {
          ...values[site.blockId],
          [site.actionId]: elementState(
            site.element,
            site.actionId,
            input.value,
            this.#answeredOptions.get(`${view.id}:${site.actionId}`),
          ),
        };
        workspace.setViewState(view.id, values);
      }
      const current = workspace.view(view.id) ?? view;
      return { container: { kind: 'view', view: current }, site };
    }
    if (input.channelId === undefined || input.messageTs === undefined) {
      throw new MissingContainerError();
    }
    const conversation = this.#conversation(input.channelId);
    const message = workspace.message(conversation.id, input.messageTs);
    const ephemeral = message ? undefined : workspace.ephemeral(input.messageTs);
    const blocks = message?.blocks ?? ephemeral?.blocks;
    if (!message && !ephemeral) throw new UnknownMessageError(conversation.id, input.messageTs);
    const site = find(blocks ?? [], `message ${input.messageTs}`);
    const responseUrl = this.double.issueResponseUrl({
      source: 'block_actions',
      userId: input.userId,
      channelId: conversation.id,
      messageTs: input.messageTs,
      isEphemeral: message === undefined,
    });
    const container: ActionContainer = {
      kind: 'message',
      conversation,
      messageTs: input.messageTs,
      responseUrl,
      ...(message ? { message } : {}),
    };
    return { container, site, responseUrl };
  }

  // ---- Workflow Builder ----------------------------------------------------------------------

  /**
   * A workflow reaches the app's custom step: a run starts in progress (with its own bot
   * token) and `function_executed` is delivered with its inputs. Started by a person
   * (`userId`), the step's `slack#/types/interactivity` inputs carry them as the interactor,
   * as a workflow started from a link or button does. Redeliver with `event` and the same
   * `eventId`.
   */
  async runWorkflowStep(
    input: { definition: StepDefinition; inputs: Record<string, unknown>; userId?: string },
    options: EventOptions = {},
  ): Promise<{ run: WorkflowRun; event: JsonObject; delivery: EventDelivery }> {
    if (input.userId) this.#requireUser(input.userId);
    const { definition } = input;
    const inputs: Record<string, unknown> = { ...input.inputs };
    for (const param of definition.inputParameters) {
      if (param.type !== 'slack#/types/interactivity' || inputs[param.name] !== undefined) continue;
      if (!input.userId) continue;
      inputs[param.name] = {
        interactor: { id: input.userId, secret: randomUUID().replaceAll('-', '') },
        interactivity_pointer: `${Date.now()}.${randomUUID().slice(0, 8)}`,
      };
    }
    const run = this.double.runs.start(definition, inputs, input.userId);
    const created = Math.floor(run.startedAt / 1000);
    const event = {
      type: 'function_executed',
      function: {
        id: newSlackId('Fn'),
        callback_id: definition.callbackId,
        title: definition.title,
        description: definition.description ?? '',
        type: 'app',
        input_parameters: definition.inputParameters,
        output_parameters: definition.outputParameters,
        app_id: this.#workspace.appId,
        date_created: created,
        date_updated: created,
        date_deleted: 0,
      },
      inputs,
      function_execution_id: run.executionId,
      workflow_execution_id: run.workflowExecutionId,
      event_ts: this.#workspace.nextTs(),
      bot_access_token: run.token,
    } as unknown as JsonObject;
    const delivery = await this.event(event, options);
    return { run, event, delivery };
  }

  // ---- anything at all ----------------------------------------------------------------------

  /** Sends a body as is (malformed JSON, unknown payloads), signed unless told otherwise. */
  async sendRaw(
    input: { body: string; contentType?: string; headers?: Record<string, string> } & SignOptions,
  ): Promise<AppAnswer> {
    return this.#transport.post({
      body: input.body,
      contentType: input.contentType ?? 'application/json',
      headers: input.headers ?? {},
      sign: signOnly(input),
    });
  }
}
