/**
 * Every Slack identifier the app registers or renders, in one place. `manifest.yml` must
 * declare the same command, shortcuts, events and scopes; test/slack/manifest.test.ts holds
 * the two together.
 */

/** The slash command. */
export const COMMAND = '/ticket';

/** Shortcut callback ids. */
export const SHORTCUTS = {
  createFromMessage: 'create_ticket_from_message',
  newTicket: 'new_ticket',
  // On an agent's own message in a triage thread: adds it to the ticket as a public message.
  sendToRequester: 'send_to_requester',
} as const;

/** View callback ids. */
export const VIEWS = {
  createTicket: 'create_ticket',
  updateTicket: 'update_ticket',
  // The triage card's "Reply to requester" modal.
  replyToRequester: 'reply_to_requester_modal',
  // The form a desk's required fields are added in, after a filing without a form lacked them.
  deskDetails: 'desk_details_modal',
} as const;

/** Action ids of interactive elements. */
export const ACTIONS = {
  openInDashboard: 'open_in_dashboard',
  // The ticket card's buttons; each carries the ticket id as its value.
  openUpdate: 'open_update_modal',
  assignToMe: 'assign_to_me',
  markResolved: 'mark_resolved',
  reopenTicket: 'reopen_ticket',
  // On AI answers in a ticket's thread (value: the ticket id).
  talkToPerson: 'talk_to_person',
  // The private prompt after a reply to a closed ticket.
  closedReplyNewTicket: 'closed_reply_new_ticket',
  closedReplyDismiss: 'closed_reply_dismiss',
  // The private prompt after a colleague's reply that would reopen someone else's ticket.
  fileAsOwnTicket: 'file_as_own_ticket',
  // The private question after a direct message soon after a ticket was resolved.
  resolvedFollowUpReopen: 'resolved_follow_up_reopen',
  resolvedFollowUpNewTicket: 'resolved_follow_up_new_ticket',
  // The private notice after a 🎫 or the shortcut on a message of a ticket's thread.
  fileOwnFromMessage: 'file_own_from_message',
  // App Home's (and the closed-ticket notice's) "New ticket" button.
  newTicket: 'new_ticket_button',
  // The triage card's button that answers the requester in the ticket's conversation.
  replyToRequester: 'reply_to_requester',
  // App Home's "Request something" button: the request form with the service catalog.
  requestSomething: 'request_something_button',
  // The private prompt after a filing without a form lacked its desk's required fields.
  addDeskDetails: 'add_desk_details',
} as const;

/**
 * The actions an agent's reaction on a triage card asks for (TRIAGE_REACTIONS), named as a
 * button's action id is where a refusal is told once per person, ticket and action.
 */
export const TRIAGE_REACTION_ACTIONS = {
  assign: 'triage_reaction_assign',
  resolve: 'triage_reaction_resolve',
  raise: 'triage_reaction_raise',
} as const;

/** Block and action ids of the update modal's inputs. */
export const UPDATE_FIELDS = {
  status: { block: 'status', action: 'status_select' },
  priority: { block: 'priority', action: 'priority_select' },
  assignee: { block: 'assignee', action: 'assignee_select' },
} as const;

/**
 * Block ids of the triage card. Its buttons are not the ticket card's block (`CARD_BLOCKS`): a
 * click must not refresh a triage card into a ticket card.
 */
export const TRIAGE_CARD_BLOCKS = {
  actions: 'triage_card_actions',
  /** The ticket's service-level clocks, under its fields. */
  clocks: 'triage_card_clocks',
} as const;

/**
 * Block and action ids of an agent's queue (Home, `/ticket queue`): each unassigned ticket's
 * buttons are in `queue_ticket:<ticket id>`, and each button's action id is the card's with
 * `:<ticket id>` after it, since a view takes an action id once. The same listeners answer them.
 */
export const QUEUE_BLOCKS = {
  ticketActionsPrefix: 'queue_ticket:',
} as const;

/** The action id of a queue's button for a ticket: the card button's, made unique in the view. */
export function queueActionId(actionId: string, ticketId: string): string {
  return `${actionId}:${ticketId}`;
}

/** Matches the card button's action id and its queue variants (`queueActionId`). */
export function actionIdOrQueued(actionId: string): RegExp {
  return new RegExp(`^${actionId}(?::[A-Za-z0-9-]+)?$`);
}

/** Block and action ids of the "Reply to requester" modal's input. */
export const REPLY_FIELDS = {
  text: { block: 'reply_text', action: 'reply_text_input' },
} as const;

/** Block ids the app finds again in its own messages (the card's lead and buttons). */
export const CARD_BLOCKS = {
  lead: 'ticket_card_lead',
  actions: 'ticket_card_actions',
  /** The ticket's service-level clocks: only on a card an agent alone sees. */
  clocks: 'ticket_card_clocks',
} as const;

/** Block and action ids of the create-ticket modal's inputs, in the order they appear. */
export const CREATE_FIELDS = {
  title: { block: 'title', action: 'title_input' },
  description: { block: 'description', action: 'description_input' },
  desk: { block: 'desk', action: 'desk_select' },
  priority: { block: 'priority', action: 'priority_select' },
  device: { block: 'device', action: 'device_select' },
  /** Inputs `description_more_1`, `_2`...: a description longer than one input holds. */
  descriptionMore: { blockPrefix: 'description_more_', action: 'description_more_input' },
  /**
   * The chosen desk's custom fields: block `cf_<key>` (the same on every desk defining the key,
   * so Slack keeps what was typed across a desk switch), action `custom_field_<type>.<key>`.
   */
  customField: { blockPrefix: 'cf_', actionPrefix: 'custom_field_' },
} as const;

/**
 * Block and action ids of the request form (the create modal for a service-catalog item): the
 * item's searchable select, whose options Slack loads from the app (`block_suggestion`, the
 * manifest's `message_menu_options_url`), and the chosen item's description under it.
 */
export const CATALOG_FIELDS = {
  item: { block: 'catalog_item', action: 'catalog_item_select' },
  about: { block: 'catalog_item_about' },
} as const;

/**
 * Workflow Builder steps (manifest `functions`, by callback id) the app runs with
 * `app.function`, and the names of their inputs and outputs, as manifest.yml declares them.
 */
export const FUNCTIONS = {
  createTicket: {
    callbackId: 'create_service_desk_ticket',
    inputs: {
      title: 'title',
      description: 'description',
      requester: 'requester',
      // Who ran the workflow (Slack's interactivity context): the requester when none is chosen.
      interactivity: 'interactivity',
      desk: 'desk',
      priority: 'priority',
      customFields: 'custom_fields',
    },
    outputs: { ticketId: 'ticket_id', ticketUrl: 'ticket_url' },
  },
} as const;

/** Events the app subscribes to (manifest `bot_events`). */
export const BOT_EVENTS = [
  'message.channels',
  'message.groups',
  'message.im',
  'message.mpim',
  'reaction_added',
  'app_home_opened',
  'member_joined_channel',
  'member_left_channel',
  // A message with a link on the manifest's unfurl_domains: tickets' dashboard links unfurl.
  'link_shared',
  // Slack's AI pane (`assistant_view`): a person opened it, or started a new chat in it.
  'assistant_thread_started',
  // Installed by OAuth: a workspace (or the organization) removed the app, or its tokens.
  'app_uninstalled',
  'tokens_revoked',
] as const;

/** OAuth bot scopes the app needs, each for a reason given beside it. */
export const BOT_SCOPES = {
  'channels:history': 'thread replies in public channels; the message a shortcut points at',
  'channels:read':
    'whether the app is a member of a public channel, so a card goes only where its thread is heard',
  'groups:history': 'thread replies in private channels',
  'groups:read':
    'whether a triage channel is private and the app is in it; who its members (its desk agents) are',
  'assistant:write':
    "Slack's AI pane: its suggested prompts, its conversation's title and the status while the AI answer is awaited",
  'chat:write': 'ticket cards and thread replies',
  'chat:write.public': 'ticket cards in public channels the app was not invited to',
  commands: 'the /ticket command and the shortcuts',
  'im:history': 'direct messages to the app',
  'im:write': 'direct messages from the app when a channel cannot take them',
  'links:read': "tickets' dashboard links posted in messages (link_shared)",
  'links:write': "unfurling tickets' dashboard links as cards (chat.unfurl)",
  'mpim:history': 'thread replies in group direct messages; the message a shortcut points at',
  'mpim:read': 'whether the app is a member of a group direct message',
  'pins:read':
    'the pinned record of a triage channel, read back when Redis came back empty (triage-channel-records)',
  'pins:write': 'pinning the record of a triage channel set with /ticket triage',
  'reactions:read':
    "the ticket emoji reaction; agents' reactions on triage cards (TRIAGE_REACTIONS)",
  'usergroups:read': 'the agents user group',
  'users:read': 'names of people',
  'users:read.email': 'matching a Slack person to the platform by email',
} as const;
