/**
 * What a visitor does on the page, done the way Slack does it: every action goes through the
 * Slack double's driver, which sends the app the signed request Slack would send (Events API
 * deliveries with Slack's 3 s timeout and retries, interactions that must be acked in 3 s), and
 * what the app answers is applied as Slack applies it. The platform side acts on the
 * emulator's model as an agent would in the platform's dashboard.
 */
import { z } from 'zod';
import { TICKET_STATUSES } from '../../src/contract/schemas.ts';
import { EmulatorError, type EmulatorModel } from '../emulator/index.ts';
import {
  type AppAnswer,
  AppTimeoutError,
  type EventDelivery,
  RequiredInputMissingError,
  RUN_TOKEN_TTL_MS,
  type SlackDouble,
  SlackDoubleError,
  type SlackDriver,
  type SubmittedValues,
  type Workspace,
} from '../slack-double/index.ts';
import { applyResponseUrlPost } from '../slack-double/response-url.ts';
import { submissionState } from '../slack-double/view-state.ts';
import type { AppProfile } from './app-manifest.ts';
import { InvalidActionError, UnknownIdentityError } from './errors.ts';
import type { VisitorIdentity } from './simulator-state.ts';
import { SANDBOX_WORKFLOWS } from './workflows.ts';

const id = z.string().min(1).max(200);
const inputValue = z.union([
  z.string().max(10_000),
  z.array(z.string().max(200)).max(100),
  z.null(),
]);
const fieldValue = z.object({ blockId: id, actionId: id, value: inputValue });

/** Every action the page can ask for. */
export const simulatorActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('setWebhooks'), enabled: z.boolean() }),
  z.object({
    type: z.literal('message'),
    as: id,
    channel: id,
    text: z.string().trim().min(1).max(40_000),
    threadTs: id.optional(),
  }),
  z.object({
    type: z.literal('command'),
    as: id,
    channel: id,
    command: z.string().regex(/^\/[\w-]{1,32}$/),
    text: z.string().max(4_000),
  }),
  z.object({
    type: z.literal('edit'),
    as: id,
    channel: id,
    ts: id,
    text: z.string().trim().min(1).max(40_000),
  }),
  z.object({
    type: z.literal('react'),
    as: id,
    channel: id,
    ts: id,
    reaction: z.string().regex(/^[a-z0-9_+'-]{1,100}$/),
  }),
  z.object({ type: z.literal('messageShortcut'), as: id, channel: id, ts: id, callbackId: id }),
  z.object({ type: z.literal('globalShortcut'), as: id, callbackId: id }),
  z.object({
    type: z.literal('blockAction'),
    as: id,
    actionId: id,
    blockId: id.optional(),
    value: inputValue.optional(),
    viewId: id.optional(),
    channel: id.optional(),
    ts: id.optional(),
    /** What the person has entered in the view so far (Slack sends it with the action). */
    viewValues: z.array(fieldValue).max(100).optional(),
  }),
  /** Words typed into an external select of a view: Slack asks the app for its options. */
  z.object({
    type: z.literal('blockSuggestion'),
    as: id,
    viewId: id,
    actionId: id,
    blockId: id.optional(),
    value: z.string().max(2_000),
  }),
  z.object({
    type: z.literal('submitView'),
    as: id,
    viewId: id,
    values: z.array(fieldValue).max(100),
  }),
  z.object({ type: z.literal('closeView'), as: id, viewId: id }),
  z.object({ type: z.literal('openAppHome'), as: id, tab: z.enum(['home', 'messages']) }),
  /** Opens the app in Slack's AI pane: a new conversation there. */
  z.object({ type: z.literal('openPane'), as: id }),
  /** A workflow's button (Workflow Builder's link trigger): runs the app's step in it. */
  z.object({ type: z.literal('runWorkflow'), as: id, workflow: id }),
  z.object({
    type: z.literal('agentReply'),
    ticketId: id,
    agentEmail: z.email(),
    body: z.string().trim().min(1).max(20_000),
    internal: z.boolean().optional().default(false),
  }),
  z.object({
    type: z.literal('setStatus'),
    ticketId: id,
    agentEmail: z.email(),
    status: z.enum(TICKET_STATUSES),
  }),
  /** "Send today's digest now": the triage channels' morning summary at once (once a day). */
  z.object({ type: z.literal('sendDigest') }),
]);

/** An action as the page sends it. */
export type SimulatorAction = z.infer<typeof simulatorActionSchema>;

/**
 * The workspace an action is done in (its team id), sent beside any action; the first
 * workspace when absent. Read apart: the actions' schemas drop keys they do not name.
 */
const actionWorkspaceSchema = z.object({ team: id.optional() });

/** One workspace the page acts in: its people's driver and whom a visitor can be there. */
export interface ActionWorkspace {
  workspace: Workspace;
  driver: SlackDriver;
  identities: readonly VisitorIdentity[];
}

/** What became of an action, for the page. */
export type ActionResult =
  | {
      ok: true;
      outcome?: string;
      errors?: Record<string, string>;
      viewId?: string;
      /** The options the app answered for an external select (blockSuggestion). */
      options?: SuggestedOption[];
      /** The AI pane's new conversation (openPane): a thread of the person's DM with the app. */
      pane?: { channel: string; threadTs: string };
    }
  | { ok: false; error: string; errors?: Record<string, string> };

/** An option the app answered for an external select, as the page shows it. */
export interface SuggestedOption {
  text: unknown;
  value: string;
}

/** Where actions go and what they may touch. */
export interface SimulatorActionsOptions {
  double: SlackDouble;
  /** The workspaces, the first acted in when an action names none. */
  workspaces: readonly [ActionWorkspace, ...ActionWorkspace[]];
  model: EmulatorModel;
  tenant: string;
  profile: AppProfile;
  /** Called when something the page shows may have changed. */
  changed: () => void;
  /** Tells a visitor what Slack would tell them (an app that did not answer...). */
  notify: (text: string, userId?: string) => void;
  /** Turns the platform's webhooks to the app on and off. */
  setWebhooks?: (enabled: boolean) => void;
  /** Sends today's morning summary now; says what became of it in each triage channel. */
  sendDigest?: () => Promise<string>;
}

// Slack's own words where its client shows them.
const TROUBLE_CONNECTING = 'We had some trouble connecting. Try again?';
const REQUIRED = 'Please complete this required field.';

type FieldValue = z.infer<typeof fieldValue>;

/** Performs the page's actions; background deliveries are awaited by `settle()`. */
export class SimulatorActions {
  readonly #o: SimulatorActionsOptions;
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(options: SimulatorActionsOptions) {
    this.#o = options;
  }

  /** Validates and performs one action from the page. */
  async perform(raw: unknown): Promise<ActionResult> {
    const parsed = simulatorActionSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidActionError(
        `${issue?.path.join('.') || 'action'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    const action = parsed.data;
    const at = this.#workspaceOf(raw);
    if ('as' in action) this.#requireIdentity(at, action.as);
    try {
      return await this.#perform(at, action);
    } catch (error) {
      // The page asked for something Slack's client would not let a person do.
      if (error instanceof SlackDoubleError || error instanceof EmulatorError) {
        return { ok: false, error: error.message };
      }
      throw error;
    } finally {
      this.#o.changed();
    }
  }

  /** Waits (bounded) for event deliveries still under way, e.g. before shutting down. */
  async settle(timeoutMs = 5_000): Promise<void> {
    if (this.#inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.allSettled([...this.#inFlight]), timeout]);
    clearTimeout(timer);
  }

  #workspaceOf(raw: unknown): ActionWorkspace {
    const team = actionWorkspaceSchema.safeParse(raw).data?.team;
    if (team === undefined) return this.#o.workspaces[0];
    const at = this.#o.workspaces.find((each) => each.workspace.team.id === team);
    if (!at) throw new InvalidActionError(`team: the sandbox has no workspace ${team}`);
    return at;
  }

  #requireIdentity(at: ActionWorkspace, userId: string): void {
    if (!at.identities.some((identity) => identity.userId === userId)) {
      throw new UnknownIdentityError(userId);
    }
  }

  async #perform(at: ActionWorkspace, action: SimulatorAction): Promise<ActionResult> {
    const { driver, workspace } = at;
    switch (action.type) {
      case 'message': {
        const command = /^\/[\w-]+/.exec(action.text)?.[0];
        if (command !== undefined) {
          return this.#command(
            at,
            action.as,
            action.channel,
            command,
            action.text.slice(command.length).trim(),
          );
        }
        if (!workspace.isMember(action.channel, action.as)) {
          return { ok: false, error: 'You are not in this conversation.' };
        }
        // The message is stored before the event leaves, as in Slack: the page shows it at once.
        this.#background(
          driver.userPosts({
            userId: action.as,
            channelId: action.channel,
            text: action.text,
            ...(action.threadTs !== undefined ? { threadTs: action.threadTs } : {}),
          }),
          (result) => result.delivery,
          action.as,
          'your message',
        );
        return { ok: true };
      }
      case 'command':
        return this.#command(at, action.as, action.channel, action.command, action.text.trim());
      case 'edit': {
        const message = workspace.message(action.channel, action.ts);
        if (message?.user !== action.as) {
          return { ok: false, error: 'Only the person who wrote a message can edit it.' };
        }
        this.#background(
          driver.userEdits({
            userId: action.as,
            channelId: action.channel,
            ts: action.ts,
            text: action.text,
          }),
          (result) => result.delivery,
          action.as,
          'your edit',
        );
        return { ok: true };
      }
      case 'react': {
        if (!workspace.isMember(action.channel, action.as)) {
          return { ok: false, error: 'You are not in this conversation.' };
        }
        this.#background(
          driver.userReacts({
            userId: action.as,
            channelId: action.channel,
            ts: action.ts,
            reaction: action.reaction,
          }),
          (result) => result.delivery,
          action.as,
          'your reaction',
        );
        return { ok: true };
      }
      case 'messageShortcut':
        return this.#interaction(action.as, 'shortcut', () =>
          driver.messageShortcut({
            callbackId: action.callbackId,
            userId: action.as,
            channelId: action.channel,
            messageTs: action.ts,
          }),
        );
      case 'globalShortcut':
        return this.#interaction(action.as, 'shortcut', () =>
          driver.globalShortcut({ callbackId: action.callbackId, userId: action.as }),
        );
      case 'blockAction':
        return this.#blockAction(at, action);
      case 'blockSuggestion':
        return this.#blockSuggestion(at, action);
      case 'submitView':
        return this.#submitView(at, action.as, action.viewId, action.values);
      case 'closeView':
        return this.#interaction(action.as, 'modal', async () => {
          const answer = await driver.viewClosed({ viewId: action.viewId, userId: action.as });
          return answer ?? { status: 200, headers: {}, text: '', body: '', ackMs: 0 };
        });
      case 'openAppHome': {
        // Slack sends the event only to an app that subscribed to it.
        if (this.#o.profile.botEvents.includes('app_home_opened')) {
          this.#background(
            driver.appHomeOpened({ userId: action.as, tab: action.tab }),
            (delivery) => delivery,
            action.as,
            'the App Home event',
          );
        }
        return { ok: true };
      }
      case 'openPane': {
        // Only an app with the pane subscribes to its event; Slack offers no pane otherwise.
        if (!this.#o.profile.botEvents.includes('assistant_thread_started'))
          return { ok: false, error: `${this.#o.profile.name} has no AI pane in its manifest.` };
        const thread = workspace.openAssistantThread(action.as);
        this.#background(
          driver.paneOpened(thread),
          (delivery) => delivery,
          action.as,
          'the AI pane’s opening',
        );
        return { ok: true, pane: { channel: thread.channel, threadTs: thread.threadTs } };
      }
      case 'runWorkflow':
        return this.#runWorkflow(at, action.as, action.workflow);
      case 'agentReply':
        this.#o.model.addAgentReply(this.#o.tenant, action.ticketId, {
          agentEmail: action.agentEmail,
          body: action.body,
          internal: action.internal,
        });
        return { ok: true };
      case 'setWebhooks':
        this.#o.setWebhooks?.(action.enabled);
        this.#o.changed();
        return { ok: true };
      case 'sendDigest': {
        if (!this.#o.sendDigest) {
          return { ok: false, error: 'No morning summary is set (TRIAGE_DIGEST_AT=off).' };
        }
        return { ok: true, outcome: await this.#o.sendDigest() };
      }
      case 'setStatus':
        this.#o.model.updateTicket(
          this.#o.tenant,
          action.ticketId,
          { status: action.status },
          action.agentEmail,
        );
        return { ok: true };
    }
  }

  /**
   * Runs a workflow as Slack does when a person presses its button: its step's run starts and
   * the app hears `function_executed`; the person is told how the run ended, as Slack's
   * workflow activity would say.
   */
  #runWorkflow(at: ActionWorkspace, userId: string, workflowId: string): ActionResult {
    const workflow = SANDBOX_WORKFLOWS.find((w) => w.id === workflowId);
    const definition = this.#o.profile.steps.find((s) => s.callbackId === workflow?.callbackId);
    if (!workflow || !definition)
      return { ok: false, error: `There is no workflow ${workflowId} in this workspace.` };
    const realName = at.workspace.user(userId)?.real_name ?? userId;
    const started = at.driver.runWorkflowStep({
      definition,
      inputs: workflow.inputs({ realName }),
      userId,
    });
    this.#background(started, (result) => result.delivery, userId, `“${workflow.name}”`);
    void started.then(({ run }) => this.#tellWhenEnded(run.executionId, workflow.name, userId));
    return { ok: true, outcome: `Started “${workflow.name}”` };
  }

  // Tells the person how their run ended, once it has (or once Slack gave up on it).
  #tellWhenEnded(executionId: string, name: string, userId: string): void {
    const { double } = this.#o;
    let unsubscribe = () => {};
    const check = () => {
      const run = double.runs.get(executionId);
      if (!run || run.state === 'in_progress') return;
      unsubscribe();
      clearTimeout(timer);
      const ticketId = run.outputs?.ticket_id;
      this.#o.notify(
        run.state === 'completed'
          ? `Workflow “${name}” finished: ticket ${typeof ticketId === 'string' ? ticketId : '(no id)'} is filed.`
          : run.state === 'failed'
            ? `Workflow “${name}” failed: ${run.error ?? 'no reason given'}`
            : `Workflow “${name}” timed out: ${this.#o.profile.name} never completed its step.`,
        userId,
      );
    };
    const timer = setTimeout(check, RUN_TOKEN_TTL_MS + 1_000);
    timer.unref();
    unsubscribe = double.onActivity(check);
    check();
  }

  async #command(
    at: ActionWorkspace,
    userId: string,
    channelId: string,
    command: string,
    text: string,
  ) {
    if (command === '/invite') return this.#invite(at, userId, channelId, text);
    const known = this.#o.profile.commands.some((c) => c.command === command);
    if (!known) {
      return {
        ok: false as const,
        error: `${command} is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`,
      };
    }
    try {
      const result = await at.driver.slashCommand({ userId, channelId, command, text });
      if (result.status !== 200) {
        this.#o.notify(`${command} failed with the error "dispatch_failed"`, userId);
        return { ok: true as const };
      }
      // An ack with a body is shown like a response_url post: privately, unless in_channel.
      if (typeof result.body === 'object' && result.body !== null) {
        applyResponseUrlPost(
          at.workspace,
          { source: 'slash_command', userId, channelId },
          result.body,
        );
      }
      return { ok: true as const };
    } catch (error) {
      if (!(error instanceof SlackDoubleError)) throw error;
      const code = error instanceof AppTimeoutError ? 'operation_timeout' : 'dispatch_failed';
      this.#o.notify(`${command} failed with the error "${code}"`, userId);
      return { ok: true as const };
    }
  }

  /**
   * Slack's own /invite (no app hears the command): adds the person or app named to the
   * channel, and the channel shows that they joined. An app that subscribes to
   * `member_joined_channel` is told, as Slack tells it (a triage channel's new member is its
   * desk's agent at once).
   */
  async #invite(
    at: ActionWorkspace,
    userId: string,
    channelId: string,
    text: string,
  ): Promise<ActionResult> {
    const { workspace } = at;
    const channel = workspace.conversation(channelId);
    if (!channel || channel.isIm || channel.isMpim) {
      return { ok: false, error: '/invite adds people and apps to a channel: use it in one.' };
    }
    if (!workspace.isMember(channelId, userId)) {
      return { ok: false, error: 'You are not in this conversation.' };
    }
    const invitee = this.#invitee(workspace, text);
    if (!invitee) {
      return {
        ok: false,
        error: text
          ? `No one here is called ${text}. Try /invite @${this.#o.profile.name}.`
          : `Say whom to invite, e.g. /invite @${this.#o.profile.name}.`,
      };
    }
    if (workspace.isMember(channelId, invitee.id)) {
      return { ok: false, error: `${invitee.label} is already in #${channel.name}.` };
    }
    if (this.#o.profile.botEvents.includes('member_joined_channel')) {
      try {
        await at.driver.userJoins({ userId: invitee.id, channelId });
      } catch (error) {
        // Joined all the same; the app reads the channel's members again within minutes.
        if (!(error instanceof SlackDoubleError)) throw error;
      }
    }
    workspace.addMember(channelId, invitee.id);
    workspace.postMessage(channelId, {
      user: invitee.id,
      subtype: 'channel_join',
      text: `<@${invitee.id}> has joined the channel`,
    });
    return { ok: true };
  }

  /** Whom an /invite's text names: `@Service Desk`, `@bob`, `Bob Baker` or `<@U0BOB>`. */
  #invitee(workspace: Workspace, text: string): { id: string; label: string } | undefined {
    const wanted = text
      .trim()
      .replace(/^<@([A-Z0-9]+)(\|[^>]*)?>$/, '$1')
      .replace(/^@/, '')
      .toLowerCase();
    if (!wanted) return undefined;
    const app = this.#o.profile.name;
    if (wanted === app.toLowerCase() || wanted === workspace.botUserId.toLowerCase()) {
      return { id: workspace.botUserId, label: app };
    }
    const user = workspace
      .users()
      .find(
        (u) =>
          !u.deleted &&
          !u.is_bot &&
          [u.id, u.name, u.real_name, u.profile.display_name]
            .filter((name): name is string => typeof name === 'string' && name !== '')
            .some((name) => name.toLowerCase() === wanted),
      );
    return user ? { id: user.id, label: user.real_name || user.name } : undefined;
  }

  async #interaction(
    userId: string,
    what: string,
    send: () => Promise<AppAnswer>,
  ): Promise<ActionResult> {
    try {
      const answer = await send();
      if (answer.status < 200 || answer.status >= 300) {
        this.#o.notify(
          `There was a problem with this ${what}: ${this.#o.profile.name} answered ${answer.status}.`,
          userId,
        );
      }
      return { ok: true };
    } catch (error) {
      if (error instanceof AppTimeoutError) {
        this.#o.notify(
          `${this.#o.profile.name} did not respond in time (operation_timeout).`,
          userId,
        );
        return { ok: true };
      }
      if (error instanceof SlackDoubleError && error.code === 'app_unreachable') {
        this.#o.notify(`${this.#o.profile.name} could not be reached (dispatch_failed).`, userId);
        return { ok: true };
      }
      throw error;
    }
  }

  async #blockAction(
    at: ActionWorkspace,
    action: Extract<SimulatorAction, { type: 'blockAction' }>,
  ) {
    const { workspace } = at;
    if (action.viewId !== undefined && action.viewValues !== undefined) {
      const view = workspace.view(action.viewId);
      if (view) {
        const state = submissionState(view, toSubmitted(view.blocks, action.viewValues), {
          allowEmptyRequired: true,
        });
        workspace.setViewState(view.id, state);
      }
    }
    return this.#interaction(action.as, 'action', () =>
      at.driver.blockAction({
        userId: action.as,
        actionId: action.actionId,
        ...(action.blockId !== undefined ? { blockId: action.blockId } : {}),
        ...(action.value !== undefined ? { value: action.value } : {}),
        ...(action.viewId !== undefined ? { viewId: action.viewId } : {}),
        ...(action.channel !== undefined ? { channelId: action.channel } : {}),
        ...(action.ts !== undefined ? { messageTs: action.ts } : {}),
      }),
    );
  }

  /**
   * Asks the app for an external select's options as Slack does (block_suggestion, answered in
   * 3 s); an answer Slack would not show is an error the page says in the select.
   */
  async #blockSuggestion(
    at: ActionWorkspace,
    action: Extract<SimulatorAction, { type: 'blockSuggestion' }>,
  ): Promise<ActionResult> {
    const result = await at.driver.blockSuggestion({
      userId: action.as,
      viewId: action.viewId,
      actionId: action.actionId,
      ...(action.blockId !== undefined ? { blockId: action.blockId } : {}),
      value: action.value,
    });
    if (result.problems.length > 0) {
      return { ok: false, error: `Slack showed no options: ${result.problems.join('; ')}` };
    }
    return {
      ok: true,
      options: result.options.map((option) => ({ text: option.text, value: String(option.value) })),
    };
  }

  async #submitView(
    at: ActionWorkspace,
    userId: string,
    viewId: string,
    values: FieldValue[],
  ): Promise<ActionResult> {
    const view = at.workspace.view(viewId);
    if (!view) return { ok: false, error: 'This view is no longer open.' };
    try {
      const result = await at.driver.viewSubmission({
        viewId,
        userId,
        values: toSubmitted(view.blocks, values),
      });
      if (result.status !== 200) return { ok: false, error: TROUBLE_CONNECTING };
      if (result.responseActionError) {
        return {
          ok: false,
          error: `Slack refused the app's answer: ${String(result.responseActionError.error)}`,
        };
      }
      if (result.responseAction === 'errors') {
        const body = result.body as { errors?: Record<string, unknown> };
        const errors: Record<string, string> = {};
        for (const [blockId, message] of Object.entries(body.errors ?? {})) {
          errors[blockId] = String(message);
        }
        return { ok: false, error: 'Please fix the highlighted fields.', errors };
      }
      return {
        ok: true,
        outcome: result.responseAction ?? 'closed',
        ...(result.pushedViewId ? { viewId: result.pushedViewId } : {}),
      };
    } catch (error) {
      if (error instanceof RequiredInputMissingError) {
        return { ok: false, error: REQUIRED, errors: { [error.blockId]: REQUIRED } };
      }
      if (error instanceof AppTimeoutError) return { ok: false, error: TROUBLE_CONNECTING };
      if (error instanceof SlackDoubleError && error.code === 'app_unreachable') {
        return { ok: false, error: TROUBLE_CONNECTING };
      }
      throw error;
    }
  }

  /** Runs an event delivery after answering the page, and says so if Slack gave up on it. */
  #background<T>(
    work: Promise<T>,
    deliveryOf: (result: T) => EventDelivery | undefined,
    userId: string,
    what: string,
  ): void {
    const tracked = work
      .then((result) => {
        const delivery = deliveryOf(result);
        if (delivery && (delivery.status < 200 || delivery.status >= 300)) {
          const tries = delivery.attempts?.length ?? 1;
          this.#o.notify(
            `Slack could not deliver ${what} to ${this.#o.profile.name} (${tries} ${tries === 1 ? 'try' : 'tries'}, last answer ${delivery.status || 'none'}).`,
            userId,
          );
        }
      })
      .catch((error: unknown) => {
        this.#o.notify(`Slack could not deliver ${what}: ${(error as Error).message}`, userId);
      })
      .finally(() => {
        this.#inFlight.delete(tracked);
        this.#o.changed();
      });
    this.#inFlight.add(tracked);
  }
}

/**
 * The page's values in the driver's terms: an input's value by its block_id (unique in a
 * view), any other element's by its action_id.
 */
function toSubmitted(blocks: readonly unknown[], values: readonly FieldValue[]): SubmittedValues {
  const inputBlocks = new Set(
    blocks
      .filter((b): b is { type: string; block_id: string } => {
        const block = b as { type?: unknown; block_id?: unknown };
        return block.type === 'input' && typeof block.block_id === 'string';
      })
      .map((b) => b.block_id),
  );
  const submitted: SubmittedValues = {};
  for (const field of values) {
    submitted[inputBlocks.has(field.blockId) ? field.blockId : field.actionId] = field.value;
  }
  return submitted;
}
