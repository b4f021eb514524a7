/** The workspace the Slack double starts with unless a test seeds its own. */

/** A Slack team (workspace). */
export interface TeamSeed {
  id: string;
  name: string;
  domain: string;
}

/** A person or bot in the workspace. */
export interface UserSeed {
  id: string;
  /** The handle (`alice`), Slack's `name`. */
  name: string;
  realName: string;
  displayName?: string;
  /** Absent for bots and for people whose email the app may not read. */
  email?: string;
  isBot?: boolean;
  /** The `B...` id of a bot user. */
  botId?: string;
  /** The `A...` app id of a bot user. */
  appId?: string;
  tz?: string;
  deleted?: boolean;
}

/** A public or private channel. DMs are made on demand by `conversations.open`. */
export interface ChannelSeed {
  id: string;
  name: string;
  isPrivate?: boolean;
  isArchived?: boolean;
  /** User ids, the bot's included when the app was invited. */
  members: string[];
}

/** A user group (`S...`), such as the configured agents group. */
export interface UsergroupSeed {
  id: string;
  handle: string;
  name: string;
  users: string[];
}

/** Everything the double's workspace starts with. */
export interface WorkspaceSeed {
  team: TeamSeed;
  /** The Enterprise Grid organization the workspace belongs to; none by default. */
  enterpriseId?: string;
  appId: string;
  botUserId: string;
  botId: string;
  botToken: string;
  users: UserSeed[];
  channels: ChannelSeed[];
  usergroups: UsergroupSeed[];
  /**
   * Put after the user's id in the `D...` id of a DM with the bot: each workspace's bot has its
   * own DMs, and an organization's conversation ids are unique across it (none by default).
   */
  imSuffix?: string;
}

/** The ids of the default workspace, so tests name people and places instead of spelling ids. */
export const defaultIds = {
  team: 'T0001',
  app: 'A0001',
  bot: 'U0BOT',
  botId: 'B0001',
  botToken: 'xoxb-test-token',
  alice: 'U0ALICE',
  bob: 'U0BOB',
  agent: 'U0AGENT',
  noEmail: 'U0NOMAIL',
  otherBot: 'U0DEPLOY',
  itHelp: 'C0ITHELP',
  general: 'C0GENERAL',
  agentsPrivate: 'C0AGENTS',
  hrPrivate: 'C0HRPRIV',
  agentsGroup: 'S0AGENTS',
} as const;

/** A fresh copy of the default workspace: employees, an agent, #it-help, #general and more. */
export function defaultWorkspaceSeed(): WorkspaceSeed {
  const id = defaultIds;
  const humans = [id.alice, id.bob, id.agent, id.noEmail];
  return {
    team: { id: id.team, name: 'Acme', domain: 'acme' },
    appId: id.app,
    botUserId: id.bot,
    botId: id.botId,
    botToken: id.botToken,
    users: [
      {
        id: id.bot,
        name: 'servicedesk',
        realName: 'Service Desk',
        isBot: true,
        botId: id.botId,
        appId: id.app,
      },
      { id: id.alice, name: 'alice', realName: 'Alice Archer', email: 'alice@acme.example' },
      { id: id.bob, name: 'bob', realName: 'Bob Baker', email: 'bob@acme.example' },
      {
        id: id.agent,
        name: 'sam.rivera',
        realName: 'Sam Rivera',
        email: 'sam.rivera@acme.example',
      },
      // A guest whose profile hides the email: the app must cope without one.
      { id: id.noEmail, name: 'guest', realName: 'Gus Guest' },
      {
        id: id.otherBot,
        name: 'deploybot',
        realName: 'Deploy Bot',
        isBot: true,
        botId: 'B0DEPLOY',
        appId: 'A0DEPLOY',
      },
    ],
    channels: [
      { id: id.itHelp, name: 'it-help', members: [id.bot, ...humans, id.otherBot] },
      // The bot was never invited here: posting answers not_in_channel.
      { id: id.general, name: 'general', members: [...humans] },
      { id: id.agentsPrivate, name: 'it-agents', isPrivate: true, members: [id.bot, id.agent] },
      // Private and without the bot: to the app it does not exist (channel_not_found).
      { id: id.hrPrivate, name: 'hr-private', isPrivate: true, members: [id.alice, id.bob] },
    ],
    usergroups: [{ id: id.agentsGroup, handle: 'it-agents', name: 'IT agents', users: [id.agent] }],
  };
}

/** The ids of the organization's second workspace (`organization` option of the double). */
export const secondIds = {
  enterprise: 'E0001',
  team: 'T0002',
  bot: 'U0BOT2',
  botId: 'B0002',
  botToken: 'xoxb-second-test-token',
  elsa: 'U0ELSA',
  euHelp: 'C0EUHELP',
  /** Acme EU's private triage channel: the bot and Sam (`defaultIds.agent`). */
  euTriage: 'C0EUTRIAGE',
  /** The organization's org-wide channel, #acme-all: one id in every workspace of it. */
  orgWide: 'C0ACMEALL',
} as const;

/**
 * The organization's second workspace: Acme EU, with Elsa, #eu-help (the bot invited) and the
 * private #eu-triage of the bot and Sam. Sam the agent (`defaultIds.agent`) is a member of both
 * workspaces, as Grid has it: one user id, one email, across the organization. The app is the
 * same (same app id); its bot user there is another, with its own DMs.
 */
export function secondWorkspaceSeed(): WorkspaceSeed {
  const id = secondIds;
  return {
    team: { id: id.team, name: 'Acme EU', domain: 'acme-eu' },
    enterpriseId: id.enterprise,
    appId: defaultIds.app,
    botUserId: id.bot,
    botId: id.botId,
    botToken: id.botToken,
    users: [
      {
        id: id.bot,
        name: 'servicedesk',
        realName: 'Service Desk',
        isBot: true,
        botId: id.botId,
        appId: defaultIds.app,
      },
      { id: id.elsa, name: 'elsa', realName: 'Elsa Engel', email: 'elsa@acme.example' },
      {
        id: defaultIds.agent,
        name: 'sam.rivera',
        realName: 'Sam Rivera',
        email: 'sam.rivera@acme.example',
      },
    ],
    channels: [
      { id: id.euHelp, name: 'eu-help', members: [id.bot, id.elsa] },
      {
        id: id.euTriage,
        name: 'eu-triage',
        isPrivate: true,
        members: [id.bot, defaultIds.agent],
      },
    ],
    usergroups: [],
    imSuffix: id.team.slice(1),
  };
}

/**
 * The organization's org-wide channel (#acme-all), in the organization's first two workspaces
 * under one id, with the bot and people of each: one channel, one history, whichever
 * workspace's token reads or writes it (`Workspace.shareConversation`).
 */
export function orgWideChannelSeed(members: readonly string[]): ChannelSeed {
  return { id: secondIds.orgWide, name: 'acme-all', members: [...members] };
}

/** The ids of the organization's workspace number `n` (`nthWorkspaceSeed`). */
export function nthWorkspaceIds(n: number): {
  team: string;
  bot: string;
  botId: string;
  botToken: string;
  alice: string;
} {
  const serial = String(n).padStart(4, '0');
  return {
    team: `T${serial}`,
    bot: `U0BOT${serial}`,
    botId: `B${serial}`,
    botToken: `xoxb-${serial}-test-token`,
    alice: `${defaultIds.alice}${serial}`,
  };
}

/**
 * The organization's workspace number `n` (the third and later of `organization.workspaces`):
 * the default workspace's channels and groups, and its people with the same names and emails
 * under user ids of this workspace (`U0ALICE0003`: each workspace's people are its own, so the
 * app meets them apart), with a team id, bot user and bot token of its own.
 */
export function nthWorkspaceSeed(n: number): WorkspaceSeed {
  const own = nthWorkspaceIds(n);
  const seed = defaultWorkspaceSeed();
  const serial = own.team.slice(1);
  const idOf = (id: string) => (id === defaultIds.bot ? own.bot : `${id}${serial}`);
  return {
    ...seed,
    team: { id: own.team, name: `Acme ${n}`, domain: `acme-${n}` },
    botUserId: own.bot,
    botId: own.botId,
    botToken: own.botToken,
    users: seed.users.map((user) =>
      user.id === defaultIds.bot
        ? { ...user, id: own.bot, botId: own.botId }
        : { ...user, id: idOf(user.id) },
    ),
    channels: seed.channels.map((channel) => ({ ...channel, members: channel.members.map(idOf) })),
    usergroups: seed.usergroups.map((group) => ({ ...group, users: group.users.map(idOf) })),
  };
}
