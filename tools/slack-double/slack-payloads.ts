/**
 * The bodies Slack sends an app, built from the double's workspace: slash command forms, Events
 * API envelopes and interaction payloads (shortcuts, view submissions, block actions), with the
 * field names and nesting Bolt reads.
 */
import { randomBytes } from 'node:crypto';
import type { JsonObject } from './block-kit.ts';
import type { Conversation, SlackMessage, SlackView, Workspace } from './workspace.ts';
import { newSlackId } from './workspace.ts';

/** What every payload builder needs: the workspace and the (deprecated) verification token. */
export interface PayloadContext {
  workspace: Workspace;
  verificationToken: string;
}

/** An Events API `event_callback` envelope. */
export interface EventEnvelope {
  token: string;
  team_id: string;
  context_team_id: string;
  context_enterprise_id: string | null;
  enterprise_id?: string;
  api_app_id: string;
  event: JsonObject;
  type: 'event_callback';
  event_id: string;
  event_time: number;
  authorizations: {
    enterprise_id: string | null;
    team_id: string;
    user_id: string;
    is_bot: boolean;
    is_enterprise_install: boolean;
  }[];
  is_ext_shared_channel: boolean;
  event_context: string;
}

/** A new Events API event id (`Ev` and ten characters), unique per event, kept across retries. */
export function newEventId(): string {
  return newSlackId('Ev');
}

function teamRef(workspace: Workspace): { id: string; domain: string; enterprise_id?: string } {
  return {
    id: workspace.team.id,
    domain: workspace.team.domain,
    // Slack adds the organization in an Enterprise Grid workspace.
    ...(workspace.enterpriseId ? { enterprise_id: workspace.enterpriseId } : {}),
  };
}

/**
 * The organization fields of an interaction payload, as Slack sends them: the enterprise in a
 * Grid workspace (else null), and `is_enterprise_install` true once the app is installed
 * org-wide (Bolt's `authorize` then looks up the organization's installation).
 */
function enterpriseOf(workspace: Workspace): {
  enterprise: { id: string } | null;
  is_enterprise_install: boolean;
} {
  return {
    enterprise: workspace.enterpriseId ? { id: workspace.enterpriseId } : null,
    is_enterprise_install: workspace.orgWideInstall,
  };
}

function userRef(workspace: Workspace, userId: string) {
  const name = workspace.user(userId)?.name ?? userId;
  return { id: userId, username: name, name, team_id: workspace.team.id };
}

/** The channel name Slack shows in payloads: DMs are 'directmessage'. */
function channelName(conversation: Conversation): string {
  return conversation.isIm ? 'directmessage' : conversation.name;
}

/** An `action_ts` for now: Slack stamps every interaction with one. */
export function actionTs(workspace: Workspace): string {
  const now = workspace.now();
  return `${Math.floor(now / 1000)}.${String(Math.floor((now % 1000) * 1000)).padStart(6, '0')}`;
}

/** The form fields of a slash command, in the order Slack sends them. */
export function slashCommandForm(
  context: PayloadContext,
  input: {
    userId: string;
    conversation: Conversation;
    command: string;
    text: string;
    triggerId: string;
    responseUrl: string;
  },
): Record<string, string> {
  const { workspace } = context;
  const { conversation } = input;
  // Slack's historic names: private channels are "privategroup" in slash commands.
  const name = conversation.isIm
    ? 'directmessage'
    : conversation.isPrivate && !conversation.isMpim
      ? 'privategroup'
      : conversation.name;
  return {
    token: context.verificationToken,
    team_id: workspace.team.id,
    team_domain: workspace.team.domain,
    // Slack adds the organization in an Enterprise Grid workspace.
    ...(workspace.enterpriseId ? { enterprise_id: workspace.enterpriseId } : {}),
    channel_id: conversation.id,
    channel_name: name,
    user_id: input.userId,
    user_name: workspace.user(input.userId)?.name ?? input.userId,
    command: input.command,
    text: input.text,
    api_app_id: workspace.appId,
    // As Slack sends it: "true" once the app is installed org-wide.
    is_enterprise_install: workspace.orgWideInstall ? 'true' : 'false',
    response_url: input.responseUrl,
    trigger_id: input.triggerId,
  };
}

/** Wraps an event in the `event_callback` envelope Slack posts to the app. */
export function eventEnvelope(
  context: PayloadContext,
  event: JsonObject,
  eventId: string,
): EventEnvelope {
  const { workspace } = context;
  const eventTs = typeof event.event_ts === 'string' ? event.event_ts : undefined;
  const eventTime = eventTs ? Math.floor(Number(eventTs)) : Math.floor(workspace.now() / 1000);
  return {
    token: context.verificationToken,
    team_id: workspace.team.id,
    context_team_id: workspace.team.id,
    context_enterprise_id: workspace.enterpriseId ?? null,
    ...(workspace.enterpriseId ? { enterprise_id: workspace.enterpriseId } : {}),
    api_app_id: workspace.appId,
    event: { ...event, ...(eventTs === undefined ? { event_ts: workspace.nextTs() } : {}) },
    type: 'event_callback',
    event_id: eventId,
    event_time: eventTime,
    authorizations: [
      {
        enterprise_id: workspace.enterpriseId ?? null,
        team_id: workspace.team.id,
        user_id: workspace.botUserId,
        is_bot: true,
        is_enterprise_install: workspace.orgWideInstall,
      },
    ],
    is_ext_shared_channel: false,
    event_context: `4-${randomBytes(24).toString('base64url')}`,
  };
}

/** A `message_action` payload: a message shortcut on a stored message. */
export function messageShortcutPayload(
  context: PayloadContext,
  input: {
    callbackId: string;
    userId: string;
    conversation: Conversation;
    message: SlackMessage;
    triggerId: string;
    responseUrl: string;
  },
): JsonObject {
  const { workspace } = context;
  return {
    type: 'message_action',
    token: context.verificationToken,
    action_ts: actionTs(workspace),
    team: teamRef(workspace),
    user: userRef(workspace, input.userId),
    channel: { id: input.conversation.id, name: channelName(input.conversation) },
    ...enterpriseOf(workspace),
    callback_id: input.callbackId,
    trigger_id: input.triggerId,
    response_url: input.responseUrl,
    message_ts: input.message.ts,
    message: input.message,
  };
}

/** A `shortcut` payload: a global shortcut. */
export function globalShortcutPayload(
  context: PayloadContext,
  input: { callbackId: string; userId: string; triggerId: string },
): JsonObject {
  const { workspace } = context;
  const { name: _name, ...user } = userRef(workspace, input.userId);
  return {
    type: 'shortcut',
    token: context.verificationToken,
    action_ts: actionTs(workspace),
    team: teamRef(workspace),
    user,
    ...enterpriseOf(workspace),
    callback_id: input.callbackId,
    trigger_id: input.triggerId,
  };
}

/** A `view_submission` payload for a view whose state holds what was entered. */
export function viewSubmissionPayload(
  context: PayloadContext,
  input: { userId: string; view: SlackView; triggerId: string },
): JsonObject {
  const { workspace } = context;
  return {
    type: 'view_submission',
    team: teamRef(workspace),
    user: userRef(workspace, input.userId),
    api_app_id: workspace.appId,
    token: context.verificationToken,
    trigger_id: input.triggerId,
    view: input.view,
    response_urls: [],
    ...enterpriseOf(workspace),
  };
}

/** A `view_closed` payload: the person closed a modal the app asked to hear about. */
export function viewClosedPayload(
  context: PayloadContext,
  input: { userId: string; view: SlackView; isCleared: boolean },
): JsonObject {
  const { workspace } = context;
  return {
    type: 'view_closed',
    team: teamRef(workspace),
    user: userRef(workspace, input.userId),
    api_app_id: workspace.appId,
    token: context.verificationToken,
    view: input.view,
    is_cleared: input.isCleared,
    ...enterpriseOf(workspace),
  };
}

/** Where a block action happened: in a message (maybe ephemeral) or in a view. */
export type ActionContainer =
  | {
      kind: 'message';
      conversation: Conversation;
      messageTs: string;
      /** Absent for ephemeral messages, which Slack does not echo back. */
      message?: SlackMessage;
      responseUrl: string;
    }
  | { kind: 'view'; view: SlackView };

/**
 * A `block_suggestion` payload: a person typed `value` into an external select of a view, and
 * Slack asks the app for its options.
 */
export function blockSuggestionPayload(
  context: PayloadContext,
  input: { userId: string; view: SlackView; actionId: string; blockId: string; value: string },
): JsonObject {
  const { workspace } = context;
  return {
    type: 'block_suggestion',
    user: userRef(workspace, input.userId),
    container: { type: 'view', view_id: input.view.id },
    api_app_id: workspace.appId,
    token: context.verificationToken,
    action_id: input.actionId,
    block_id: input.blockId,
    value: input.value,
    team: teamRef(workspace),
    ...enterpriseOf(workspace),
    view: input.view,
  };
}

/** A `block_actions` payload for one action. */
export function blockActionsPayload(
  context: PayloadContext,
  input: { userId: string; container: ActionContainer; action: JsonObject; triggerId: string },
): JsonObject {
  const { workspace } = context;
  const payload: JsonObject = {
    type: 'block_actions',
    user: userRef(workspace, input.userId),
    api_app_id: workspace.appId,
    token: context.verificationToken,
    trigger_id: input.triggerId,
    team: teamRef(workspace),
    ...enterpriseOf(workspace),
    actions: [input.action],
  };
  const { container } = input;
  if (container.kind === 'view') {
    payload.container = { type: 'view', view_id: container.view.id };
    payload.view = container.view;
    payload.state = container.view.state;
    return payload;
  }
  payload.container = {
    type: 'message',
    message_ts: container.messageTs,
    channel_id: container.conversation.id,
    is_ephemeral: container.message === undefined,
  };
  payload.channel = { id: container.conversation.id, name: channelName(container.conversation) };
  if (container.message) payload.message = container.message;
  payload.state = { values: {} };
  payload.response_url = container.responseUrl;
  return payload;
}
