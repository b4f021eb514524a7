/**
 * The snapshot the page renders: one person's view of the Slack workspace (their channels and
 * DM with the app, ephemeral messages, open modals, App Home) and, beside it, the platform's
 * view of its tickets. Built fresh on every fetch from the Slack double's workspace and the
 * emulator's model, so the page shows exactly what the app and the platform hold.
 */

import type { Activity, Message, Ticket } from '../../src/contract/schemas.ts';
import { TICKET_STATUSES } from '../../src/contract/schemas.ts';
import type { EmulatorModel } from '../emulator/index.ts';
import type {
  AssistantThread,
  EphemeralMessage,
  SlackMessage,
  SlackView,
  Workspace,
} from '../slack-double/index.ts';
import type { AppProfile } from './app-manifest.ts';
import { type WorkflowView, workflowsOf } from './workflows.ts';

/** Someone a visitor can be: an employee or an agent. */
export interface VisitorIdentity {
  userId: string;
  role: 'employee' | 'agent';
}

/** A person as the page names them. */
export interface PersonView {
  id: string;
  name: string;
  realName: string;
  isBot: boolean;
  /**
   * A person of another workspace of the organization: named where mentioned, as Grid's ids
   * are the organization's, but not offered in the shown workspace's pickers.
   */
  elsewhere?: true;
}

/** A conversation in the sidebar, with every message in it (replies included). */
export interface ConversationView {
  id: string;
  /** `it-help`, or the app's name for the DM. */
  name: string;
  kind: 'channel' | 'im';
  /** Whether it is a private channel (shown with a lock, as Slack does). */
  isPrivate: boolean;
  /** Whether the app's bot is in it (the app hears messages only where it is). */
  botIsMember: boolean;
  messages: SlackMessage[];
}

/** A ticket in the platform's list. */
export type TicketSummary = Pick<
  Ticket,
  | 'id'
  | 'title'
  | 'status'
  | 'priority'
  | 'requester_email'
  | 'assignee_email'
  | 'created_at'
  | 'channel'
>;

/** The platform's side: its tickets, one of them opened with its conversation and activity. */
export interface PlatformView {
  tenant: string;
  agents: { email: string; name: string }[];
  /** Everyone in the platform's directory: lower-case email → name, to name people by. */
  names: Record<string, string>;
  statuses: string[];
  tickets: TicketSummary[];
  selected: { ticket: Ticket; messages: Message[]; activity: Activity[] } | null;
  /** Whether the visitor chose the ticket (else the newest is followed). */
  pinned: boolean;
  /** Whether the platform pushes its changes to the app (webhooks); undefined: it cannot. */
  webhooks: boolean | undefined;
}

/** Something the sandbox itself tells the visitor (Slack's own error banners). */
export interface Notice {
  id: number;
  userId: string | undefined;
  text: string;
  at: number;
}

/** Everything the page needs for one render. */
export interface SimulatorSnapshot {
  revision: number;
  me: string;
  /** The workspace shown. */
  team: { id: string; name: string };
  /** Every workspace the visitor can switch to (one unless the sandbox is an organization). */
  workspaces: WorkspaceChoice[];
  app: AppProfile & { botUserId: string; appId: string; workflows: WorkflowView[] };
  identities: (VisitorIdentity & { realName: string })[];
  people: PersonView[];
  conversations: ConversationView[];
  ephemerals: EphemeralMessage[];
  modals: SlackView[];
  home: SlackView | null;
  /** The person's conversations in Slack's AI pane (threads of their DM with the app), oldest first. */
  panes: AssistantThread[];
  notices: Notice[];
  platform: PlatformView;
}

/** A workspace the visitor can switch to, with whom they can be there (user ids). */
export interface WorkspaceChoice {
  id: string;
  name: string;
  identities: string[];
}

/** Where the snapshot is read from. */
export interface SnapshotSources {
  /** The workspace shown. */
  workspace: Workspace;
  /** Every workspace the visitor can switch to; the one shown alone when absent. */
  workspaces?: readonly WorkspaceChoice[];
  /** The organization's other workspaces, whose people a message may mention. */
  elsewhere?: readonly Workspace[];
  model: EmulatorModel;
  tenant: string;
  profile: AppProfile;
  identities: readonly VisitorIdentity[];
  channels: readonly string[];
  revision: number;
  notices: readonly Notice[];
  /** Whether the platform's webhooks to the app are on, when the sandbox wires them. */
  webhooks?: boolean;
}

// The newest tickets are the ones a visitor is following; older seed data only adds noise.
const TICKET_LIST_SIZE = 30;
const ALL_TICKETS_PAGE = 10_000;

function summary(ticket: Ticket): TicketSummary {
  return {
    id: ticket.id,
    title: ticket.title,
    status: ticket.status,
    priority: ticket.priority,
    requester_email: ticket.requester_email,
    assignee_email: ticket.assignee_email,
    created_at: ticket.created_at,
    channel: ticket.channel,
  };
}

function platformView(sources: SnapshotSources, ticketId: string | undefined): PlatformView {
  const { model, tenant } = sources;
  const all = model.listTickets(tenant, { page: 1, pageSize: ALL_TICKETS_PAGE }).items;
  const tickets = all.slice(-TICKET_LIST_SIZE).reverse().map(summary);
  // Without a choice the newest ticket is shown: the one a visitor has just filed.
  const ticket = ticketId ? model.findTicket(tenant, ticketId) : all.at(-1);
  const employees = model.listEmployees(tenant, { offset: 0, limit: 1_000 }).items;
  const agents = employees
    .filter((employee) => employee.role === 'agent')
    .map((employee) => ({ email: employee.email, name: employee.name }));
  const names = Object.fromEntries(
    employees.map((employee) => [employee.email.toLowerCase(), employee.name]),
  );
  return {
    tenant,
    agents,
    names,
    statuses: [...TICKET_STATUSES],
    tickets,
    pinned: ticketId !== undefined && ticket !== undefined,
    webhooks: sources.webhooks,
    selected: ticket
      ? {
          ticket,
          messages: model.listMessages(tenant, ticket.id),
          activity: model.listActivity(tenant, ticket.id),
        }
      : null,
  };
}

/** A string that changes whenever a ticket the platform side lists changes (cheap to compare). */
export function platformFingerprint(model: EmulatorModel, tenant: string): string {
  const all = model.listTickets(tenant, { page: 1, pageSize: ALL_TICKETS_PAGE }).items;
  return JSON.stringify([
    all.length,
    all.slice(-TICKET_LIST_SIZE).map((t) => [t.id, t.updated_at, t.status]),
  ]);
}

/** The DM between a person and the app, as the workspace names it. */
export function appDmId(workspace: Workspace, userId: string): string {
  return workspace.openIm(userId);
}

/** Builds the snapshot for one visitor identity, with one ticket opened on the platform side. */
export function buildSnapshot(
  sources: SnapshotSources,
  userId: string,
  ticketId: string | undefined,
): SimulatorSnapshot {
  const { workspace, profile } = sources;
  const conversations: ConversationView[] = [];
  for (const channelId of sources.channels) {
    const conversation = workspace.conversation(channelId);
    if (!conversation?.members.includes(userId)) continue;
    conversations.push({
      id: conversation.id,
      name: conversation.name,
      kind: 'channel',
      isPrivate: conversation.isPrivate,
      botIsMember: conversation.members.includes(workspace.botUserId),
      messages: workspace.messages(conversation.id),
    });
  }
  const dm = appDmId(workspace, userId);
  conversations.push({
    id: dm,
    name: profile.name,
    kind: 'im',
    isPrivate: true,
    botIsMember: true,
    messages: workspace.messages(dm),
  });
  const people: PersonView[] = workspace.users().map((user) => ({
    id: user.id,
    name: user.name,
    realName: user.real_name,
    isBot: user.is_bot,
  }));
  for (const other of sources.elsewhere ?? []) {
    for (const user of other.users()) {
      if (people.some((person) => person.id === user.id)) continue;
      people.push({
        id: user.id,
        name: user.name,
        realName: user.real_name,
        isBot: user.is_bot,
        elsewhere: true,
      });
    }
  }
  return {
    revision: sources.revision,
    me: userId,
    team: { id: workspace.team.id, name: workspace.team.name },
    workspaces: [
      ...(sources.workspaces ?? [
        {
          id: workspace.team.id,
          name: workspace.team.name,
          identities: sources.identities.map((identity) => identity.userId),
        },
      ]),
    ],
    app: {
      ...profile,
      botUserId: workspace.botUserId,
      appId: workspace.appId,
      workflows: workflowsOf(profile),
    },
    identities: sources.identities.map((identity) => ({
      ...identity,
      realName: workspace.user(identity.userId)?.real_name ?? identity.userId,
    })),
    people,
    conversations,
    ephemerals: workspace.ephemerals({ user: userId }),
    modals: workspace.modalStack(userId),
    home: workspace.homeView(userId) ?? null,
    panes: workspace.assistantThreadsOf(userId),
    notices: sources.notices.filter((n) => n.userId === undefined || n.userId === userId),
    platform: platformView(sources, ticketId),
  };
}
