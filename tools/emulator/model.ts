/**
 * The emulator's state, separate from HTTP: tenants and their desks, people, assets, tickets,
 * messages, activity, AI conversations and idempotency records. Everything is in memory.
 *
 * Time comes from an injectable clock so a benchmark can run on a simulated one. Every write is
 * synchronous: a check and the insert it guards never have an await between them, which is what
 * makes concurrent identical requests (idempotency) safe on one JS thread.
 */
import type {
  Activity,
  AddMessageInput,
  Application,
  Asset,
  AuthorType,
  CatalogItem,
  CreateTicketInput,
  CustomField,
  Desk,
  Employee,
  Envelope,
  Message,
  ServiceRequest,
  Ticket,
  TicketPriority,
  TicketStatus,
  UpdateTicketInput,
} from '../../src/contract/schemas.ts';
import { normaliseTicketId } from '../../src/contract/ticket-id.ts';
import {
  BusinessRuleError,
  EmulatorConfigError,
  EmulatorNotFoundError,
  EmulatorValidationError,
} from './errors.ts';
import type { Now } from './scheduler.ts';
import {
  dueTimesDiffer,
  newServiceLevelState,
  onResponse,
  onStatusChange,
  type ServiceLevelFields,
  type ServiceLevelState,
  serviceLevelFields,
} from './service-levels.ts';
import {
  enumMessage,
  issue,
  type OffsetQuery,
  type PageQuery,
  parseIsoDateTime,
} from './validation.ts';

/** A knowledge-base article the AI agent answers from. */
export interface KnowledgeArticle {
  id: string;
  title: string;
  url: string;
  /** Lower-case words or phrases that make the article relevant to a ticket. */
  keywords: string[];
  answer: string;
  /** Whether the answer settles the request on its own (the AI then resolves the ticket). */
  resolves: boolean;
}

/** How the AI agent routes a ticket: words that point at a desk, and the desk's human team. */
export interface DeskRouting {
  desk: string;
  team: string;
  keywords: string[];
}

/** A tenant's configuration, as a seed provides it. */
export interface TenantSetup {
  name: string;
  /** Prefix of the tenant's ticket IDs (`IT` gives `IT-1`, `IT-2`, ...). */
  ticketPrefix: string;
  desks: Desk[];
  employees?: Employee[];
  assets?: Asset[];
  applications?: Application[];
  catalogItems?: CatalogItem[];
  /** Custom field definitions, each naming its desk (`desk_id`). */
  customFields?: CustomField[];
  knowledgeBase?: KnowledgeArticle[];
  routing?: DeskRouting[];
}

/** Filters and page of List tickets. */
export interface TicketQuery extends PageQuery {
  deskId?: string;
  /** Only tickets created strictly after this instant (epoch ms). */
  createdAfterMs?: number;
  /**
   * Only tickets changed strictly after this instant (epoch ms). Ignored, as an unknown query
   * parameter would be, when the model runs without the `updatedAfter` capability.
   */
  updatedAfterMs?: number;
  status?: TicketStatus;
  /**
   * Only tickets in one of these statuses (the `ticketFilters` capability's comma-separated
   * `status`); ignored without the capability.
   */
  statuses?: readonly TicketStatus[];
  requesterEmail?: string;
  /**
   * Only tickets assigned to this email, any case; `''` only unassigned ones. Ignored, as an
   * unknown query parameter would be, without the `ticketFilters` capability.
   */
  assigneeEmail?: string;
}

/** Ticket fields whose change is a `ticket_updated` event. */
export type TicketField =
  | 'status'
  | 'priority'
  | 'assignee_email'
  | 'team'
  | 'desk_id'
  | 'custom_fields'
  /** The service-level clocks (capability `serviceLevels`): a due time moved, or a pause. */
  | 'service_levels';

/** A change the AI agent, the webhook sender (or anything else) may react to. */
export type ModelEvent =
  | { type: 'ticket_created'; tenant: string; ticketId: string; atMs: number }
  | { type: 'message_added'; tenant: string; ticketId: string; message: Message; atMs: number }
  | {
      type: 'ticket_updated';
      tenant: string;
      ticketId: string;
      fields: TicketField[];
      atMs: number;
    };

/**
 * Optional capabilities of the platform (docs/platform-contract.md, "Optional capabilities"): a real
 * tenant may have them or not, so the emulator can play either.
 */
export interface ModelCapabilities {
  /** Tickets carry `updated_at`. */
  updatedAt: boolean;
  /** List tickets honours `updated_after`; needs `updatedAt`. */
  updatedAfter: boolean;
  /**
   * List custom fields is served and Create ticket checks `custom_fields` against it. Off, the
   * path is unknown (404, as on a platform without custom fields) and values are kept unchecked.
   */
  customFields: boolean;
  /**
   * List catalog items is served. Off, the path is unknown (404), as on a platform without a
   * service catalog.
   */
  catalog: boolean;
  /**
   * Create ticket refuses a required custom field left empty (422). Off, it files the ticket
   * without it (a platform whose fields are required only when an agent works the ticket), and
   * the field is set later with Update ticket; values given are checked either way.
   */
  requiredFieldsOnCreate: boolean;
  /**
   * Tickets carry service-level clocks (`first_response_due_at`, `resolution_due_at`,
   * `first_responded_at`, `sla_paused`) from the demo policy (`service-levels.ts`). Off, the
   * fields are left out, as on a platform without them.
   */
  serviceLevels: boolean;
  /**
   * List tickets honours `assignee_email` (empty: unassigned) and a comma-separated `status`
   * ("More List tickets filters" in the API contract). Off, both are ignored like any unknown
   * parameter (a single `status` still filters, as it always did).
   */
  ticketFilters: boolean;
}

/** A response remembered for an idempotency key. */
export interface IdempotentResponse {
  status: number;
  body: unknown;
}

/** The remembered or fresh response, and whether it was replayed. */
export interface IdempotentOutcome extends IdempotentResponse {
  replayed: boolean;
}

/** The author of a message an outside party adds (see `addAgentReply`). */
export interface AgentReply {
  agentEmail: string;
  body: string;
  internal?: boolean;
}

/** How long an idempotency key is remembered (contract: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** Name shown on the AI agent's messages. */
export const AI_AGENT_NAME = 'AI Agent';

/** Actor of activity entries written by the AI agent. */
export const AI_ACTOR = 'ai_agent';

type TicketRecord = {
  id: string;
  title: string;
  status: TicketStatus;
  priority: TicketPriority;
  created_at: string;
  updated_at: string;
  description: string | null;
  desk_id: string | null;
  requester_email: string | null;
  assignee_email: string | null;
  team: string | null;
  channel: string | null;
  custom_fields: Record<string, unknown>;
};

interface StoredTicket {
  /** Insertion number: breaks ties between tickets created in the same millisecond. */
  seq: number;
  createdMs: number;
  /** `updated_at` as a number, so an `updated_after` scan compares numbers, not strings. */
  updatedMs: number;
  record: TicketRecord;
  messages: Message[];
  activity: Activity[];
  /** The service-level clocks' bookkeeping, kept whether or not the capability shows them. */
  sla: ServiceLevelState;
}

interface IdempotencyRecord extends IdempotentResponse {
  fingerprint: string;
  expiresMs: number;
}

interface TenantState {
  setup: Required<TenantSetup>;
  nextNumber: number;
  /** Every ticket, oldest first by (created_at, seq): the order List tickets pages through. */
  tickets: StoredTicket[];
  byId: Map<string, StoredTicket>;
  /** Per desk, the same order: a desk filter pages without scanning the other desks. */
  byDesk: Map<string, StoredTicket[]>;
  employeesByEmail: Map<string, Employee>;
  requests: ServiceRequest[];
  idempotency: Map<string, IdempotencyRecord>;
}

/** The emulator's in-memory platform. */
export class EmulatorModel {
  readonly #clock: Now;
  readonly #capabilities: Readonly<ModelCapabilities>;
  readonly #tenants = new Map<string, TenantState>();
  readonly #listeners = new Set<(event: ModelEvent) => void>();
  readonly #requestCounts = new Map<string, number>();
  #totalRequests = 0;
  #seq = 0;
  #nextMessage = 1;
  #nextActivity = 1;
  #nextRequest = 1;
  #publicUrl = '';
  /** Set while a seed writes history: the time it writes at, and no events go out. */
  #replayAt: number | undefined;

  constructor(now: Now = Date.now, capabilities: Partial<ModelCapabilities> = {}) {
    this.#clock = now;
    this.#capabilities = resolveCapabilities(capabilities);
  }

  /** Which optional capabilities this platform plays. */
  get capabilities(): Readonly<ModelCapabilities> {
    return this.#capabilities;
  }

  /** The model's current time in epoch ms (the replay time while a seed writes). */
  now(): number {
    return this.#replayAt ?? this.#clock();
  }

  /**
   * Runs `write` as if the clock read `atMs`, without notifying listeners. Seeds write history
   * through the same methods as the API, so their tickets carry consistent activity.
   */
  atTime<T>(atMs: number, write: () => T): T {
    const previous = this.#replayAt;
    this.#replayAt = atMs;
    try {
      return write();
    } finally {
      this.#replayAt = previous;
    }
  }

  /** Subscribes to ticket and message events; returns the unsubscribe function. */
  onEvent(listener: (event: ModelEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Sets the emulator's own address, which dashboard links in tickets start with. */
  setPublicUrl(url: string): void {
    this.#publicUrl = url.replace(/\/+$/, '');
  }

  /** The dashboard page of a ticket (served by the emulator itself). */
  dashboardUrl(tenant: string, ticketId: string): string {
    return `${this.#publicUrl}/dashboard/${encodeURIComponent(tenant)}/tickets/${encodeURIComponent(ticketId)}`;
  }

  // --- tenants -------------------------------------------------------------------------------

  /** Adds a tenant with its configuration; its ticket numbers start at 1. */
  addTenant(setup: TenantSetup): void {
    if (this.#tenants.has(setup.name)) throw new Error(`Tenant ${setup.name} already exists`);
    const full: Required<TenantSetup> = {
      employees: [],
      assets: [],
      applications: [],
      catalogItems: [],
      customFields: [],
      knowledgeBase: [],
      routing: [],
      ...setup,
    };
    const state: TenantState = {
      setup: full,
      nextNumber: 1,
      tickets: [],
      byId: new Map(),
      byDesk: new Map(),
      employeesByEmail: new Map(),
      requests: [],
      idempotency: new Map(),
    };
    this.#tenants.set(setup.name, state);
    for (const employee of full.employees)
      state.employeesByEmail.set(employee.email.toLowerCase(), employee);
  }

  /** Whether a tenant exists. */
  hasTenant(name: string): boolean {
    return this.#tenants.has(name);
  }

  /** Names of every tenant. */
  tenantNames(): string[] {
    return [...this.#tenants.keys()];
  }

  /** Adds an employee to a tenant (tests use it to set up people on an empty seed). */
  addEmployee(tenant: string, employee: Employee): void {
    const state = this.#tenant(tenant);
    state.setup.employees.push(employee);
    state.employeesByEmail.set(employee.email.toLowerCase(), employee);
  }

  /** Gives a tenant an asset (the sandbox uses it to give its Slack people their devices). */
  addAsset(tenant: string, asset: Asset): void {
    this.#tenant(tenant).setup.assets.push({ ...asset });
  }

  /** The employee with this email (case-insensitive), if any. */
  findEmployee(tenant: string, email: string): Employee | undefined {
    return this.#tenant(tenant).employeesByEmail.get(email.toLowerCase());
  }

  /** The tenant's knowledge base. */
  knowledgeBase(tenant: string): readonly KnowledgeArticle[] {
    return this.#tenant(tenant).setup.knowledgeBase;
  }

  /** The tenant's desk routing (AI classification). */
  routing(tenant: string): readonly DeskRouting[] {
    return this.#tenant(tenant).setup.routing;
  }

  // --- tickets -------------------------------------------------------------------------------

  /** Creates a ticket: status `new`, priority `medium` unless given; desk_id must be a desk. */
  createTicket(tenant: string, input: CreateTicketInput): Ticket {
    const state = this.#tenant(tenant);
    if (input.desk_id !== undefined) this.#checkDesk(state, input.desk_id, ['body', 'desk_id']);
    const now = this.now();
    const at = iso(now);
    const id = `${state.setup.ticketPrefix}-${state.nextNumber}`;
    state.nextNumber += 1;
    const stored: StoredTicket = {
      seq: this.#seq++,
      createdMs: now,
      updatedMs: now,
      record: {
        id,
        title: input.title,
        status: 'new',
        priority: input.priority ?? 'medium',
        created_at: at,
        updated_at: at,
        description: input.description ?? null,
        desk_id: input.desk_id ?? null,
        requester_email: input.requester_email ?? null,
        assignee_email: null,
        team: null,
        channel: input.channel ?? null,
        custom_fields: { ...(input.custom_fields ?? {}) },
      },
      messages: [],
      activity: [],
      sla: newServiceLevelState(),
    };
    insertSorted(state.tickets, stored);
    state.byId.set(id, stored);
    if (stored.record.desk_id !== null)
      insertSorted(deskList(state, stored.record.desk_id), stored);
    this.#log(stored, 'created', null, 'new', input.requester_email ?? 'api');
    this.#emit({ type: 'ticket_created', tenant, ticketId: id, atMs: now });
    return this.#view(tenant, stored);
  }

  /** The ticket with this ID (any case), or undefined. */
  findTicket(tenant: string, id: string): Ticket | undefined {
    const stored = this.#lookup(this.#tenant(tenant), id);
    return stored && this.#view(tenant, stored);
  }

  /** The ticket with this ID (any case); 404 when the tenant has none. */
  getTicket(tenant: string, id: string): Ticket {
    return this.#view(tenant, this.#stored(tenant, id));
  }

  /** Number of tickets of a tenant. */
  ticketCount(tenant: string): number {
    return this.#tenant(tenant).tickets.length;
  }

  /**
   * Changes status, priority, assignee, team or custom fields (merged, each checked against the
   * ticket's desk: 422 at its key). A closed ticket refuses any change (400); the assignee must
   * be an agent (422); every actual change bumps updated_at, and all but custom fields are logged.
   */
  updateTicket(tenant: string, id: string, input: UpdateTicketInput, actor = 'api'): Ticket {
    const state = this.#tenant(tenant);
    const stored = this.#stored(tenant, id);
    const ticket = stored.record;
    if (ticket.status === 'closed') {
      throw new BusinessRuleError(`Ticket ${ticket.id} is closed; a closed ticket cannot change`);
    }
    if (input.custom_fields !== undefined)
      this.#checkUpdatedFields(state, ticket.desk_id, input.custom_fields);
    let assignee = ticket.assignee_email;
    if (input.assignee_email !== undefined) {
      assignee =
        input.assignee_email === null ? null : this.#agentEmail(state, input.assignee_email);
    }
    const fields: TicketField[] = [];
    const clocksBefore = this.#clockFields(stored);
    if (input.status !== undefined && input.status !== ticket.status) {
      this.#log(stored, 'status_changed', ticket.status, input.status, actor);
      ticket.status = input.status;
      stored.sla = onStatusChange(stored.sla, input.status, this.now());
      fields.push('status');
    }
    if (input.priority !== undefined && input.priority !== ticket.priority) {
      this.#log(stored, 'priority_changed', ticket.priority, input.priority, actor);
      ticket.priority = input.priority;
      fields.push('priority');
    }
    if (assignee !== ticket.assignee_email) {
      this.#log(stored, 'assigned', ticket.assignee_email, assignee, actor, {
        field: 'assignee_email',
      });
      ticket.assignee_email = assignee;
      fields.push('assignee_email');
    }
    if (input.team !== undefined && input.team !== ticket.team) {
      this.#log(stored, 'assigned', ticket.team, input.team, actor, { field: 'team' });
      ticket.team = input.team;
      fields.push('team');
    }
    if (input.custom_fields !== undefined) {
      // Merged, as the contract says: keys not given keep their values.
      const merged = { ...ticket.custom_fields, ...input.custom_fields };
      if (JSON.stringify(merged) !== JSON.stringify(ticket.custom_fields)) {
        ticket.custom_fields = merged;
        fields.push('custom_fields');
      }
    }
    // A priority recomputes the due times, a status may pause or resume them: either is a
    // change of its own to a client that reads the clocks.
    if (this.#clocksMoved(stored, clocksBefore)) fields.push('service_levels');
    if (fields.length > 0) this.#changed(tenant, stored, fields);
    return this.#view(tenant, stored);
  }

  /**
   * Files a ticket under a desk (the AI agent's classification). Keeps the desk index in step.
   */
  setDesk(tenant: string, id: string, deskId: string): Ticket {
    const state = this.#tenant(tenant);
    const stored = this.#stored(tenant, id);
    this.#checkDesk(state, deskId, ['body', 'desk_id']);
    const previous = stored.record.desk_id;
    if (previous === deskId) return this.#view(tenant, stored);
    if (previous !== null) removeSorted(deskList(state, previous), stored);
    insertSorted(deskList(state, deskId), stored);
    stored.record.desk_id = deskId;
    this.#changed(tenant, stored, ['desk_id']);
    return this.#view(tenant, stored);
  }

  /**
   * List tickets, oldest first by creation (so pages stay stable while new tickets arrive).
   * Desk and creation filters use sorted indexes; status, requester and `updated_after` filters
   * scan what is left (an `updated_after` scan of 100,000 tickets takes about 1.5 ms, inside
   * the 5 ms a page the benchmark aims at, so it has no index of its own).
   */
  listTickets(tenant: string, query: TicketQuery): Envelope<Ticket> {
    const state = this.#tenant(tenant);
    const candidates =
      query.deskId === undefined ? state.tickets : (state.byDesk.get(query.deskId) ?? []);
    const start =
      query.createdAfterMs === undefined ? 0 : firstCreatedAfter(candidates, query.createdAfterMs);
    const skip = (query.page - 1) * query.pageSize;
    const view = (stored: StoredTicket) => this.#view(tenant, stored);
    const updatedAfter = this.#capabilities.updatedAfter ? query.updatedAfterMs : undefined;
    const filters = this.#capabilities.ticketFilters;
    const statuses = filters && query.statuses ? new Set<string>(query.statuses) : undefined;
    const assignee = filters ? query.assigneeEmail?.toLowerCase() : undefined;
    if (
      query.status === undefined &&
      query.requesterEmail === undefined &&
      updatedAfter === undefined &&
      statuses === undefined &&
      assignee === undefined
    ) {
      const from = start + skip;
      return {
        items: candidates.slice(from, from + query.pageSize).map(view),
        total_count: candidates.length - start,
      };
    }
    const email = query.requesterEmail?.toLowerCase();
    const items: Ticket[] = [];
    let total = 0;
    for (let index = start; index < candidates.length; index += 1) {
      const stored = candidates[index] as StoredTicket;
      if (updatedAfter !== undefined && stored.updatedMs <= updatedAfter) continue;
      if (query.status !== undefined && stored.record.status !== query.status) continue;
      if (email !== undefined && stored.record.requester_email?.toLowerCase() !== email) continue;
      if (statuses !== undefined && !statuses.has(stored.record.status)) continue;
      if (
        assignee !== undefined &&
        (stored.record.assignee_email?.toLowerCase() ?? '') !== assignee
      )
        continue;
      if (total >= skip && items.length < query.pageSize) items.push(view(stored));
      total += 1;
    }
    return { items, total_count: total };
  }

  // --- messages and activity -----------------------------------------------------------------

  /**
   * Adds a message. `author_email` decides the author: an agent's email gives `agent`, any
   * other email `requester`, none `system`. A requester's (non-internal) message reopens a
   * resolved ticket and answers a ticket waiting on the requester. Closed tickets refuse it.
   */
  addMessage(tenant: string, id: string, input: AddMessageInput): Message {
    const state = this.#tenant(tenant);
    const stored = this.#stored(tenant, id);
    const author = this.#author(state, input.author_email);
    return this.#appendMessage(tenant, stored, author, input.body, input.internal ?? false, []);
  }

  /** Adds a reply from a human agent, as an agent would in the dashboard (422 if not an agent). */
  addAgentReply(tenant: string, id: string, reply: AgentReply): Message {
    const state = this.#tenant(tenant);
    const stored = this.#stored(tenant, id);
    const email = this.#agentEmail(state, reply.agentEmail, ['body', 'author_email']);
    const author = this.#author(state, email);
    return this.#appendMessage(tenant, stored, author, reply.body, reply.internal ?? false, []);
  }

  /** Adds a message from the platform's AI agent, with the knowledge-base sources it used. */
  addAiMessage(tenant: string, id: string, body: string, sources: Message['sources']): Message {
    const stored = this.#stored(tenant, id);
    const author = { type: 'ai_agent' as const, name: AI_AGENT_NAME, email: null };
    return this.#appendMessage(tenant, stored, author, body, false, sources);
  }

  /** Every message of a ticket, oldest first. */
  listMessages(tenant: string, id: string): Message[] {
    return this.#stored(tenant, id).messages.map(copyMessage);
  }

  /** One page of a ticket's messages, oldest first. */
  pageMessages(tenant: string, id: string, page: PageQuery): Envelope<Message> {
    const messages = this.#stored(tenant, id).messages;
    const from = (page.page - 1) * page.pageSize;
    return {
      items: messages.slice(from, from + page.pageSize).map(copyMessage),
      total_count: messages.length,
    };
  }

  /** Every activity entry of a ticket, oldest first. */
  listActivity(tenant: string, id: string): Activity[] {
    return this.#stored(tenant, id).activity.map((entry) => ({ ...entry }));
  }

  /** A slice of a ticket's activity, oldest first. */
  pageActivity(tenant: string, id: string, range: OffsetQuery): Envelope<Activity> {
    const activity = this.#stored(tenant, id).activity;
    return offsetPage(activity, range, (entry) => ({ ...entry }));
  }

  // --- other areas ---------------------------------------------------------------------------

  /** Every desk of the tenant (subdesks name their parent). */
  listDesks(tenant: string): Envelope<Desk> {
    const desks = this.#tenant(tenant).setup.desks;
    return { items: desks.map((desk) => ({ ...desk })), total_count: desks.length };
  }

  /**
   * Removes a desk, as an admin deleting it in the dashboard would: new tickets can no longer
   * name it (a client holding an old desk list then gets a 422 on desk_id).
   */
  removeDesk(tenant: string, slug: string): boolean {
    const setup = this.#tenant(tenant).setup;
    const before = setup.desks.length;
    setup.desks = setup.desks.filter((desk) => desk.slug !== slug);
    return setup.desks.length < before;
  }

  /** Employees, optionally only the one with an email. */
  listEmployees(tenant: string, range: OffsetQuery & { email?: string }): Envelope<Employee> {
    const all = this.#tenant(tenant).setup.employees;
    const email = range.email?.toLowerCase();
    const matching =
      email === undefined ? all : all.filter((employee) => employee.email.toLowerCase() === email);
    return offsetPage(matching, range, (employee) => ({ ...employee }));
  }

  /** Assets, optionally of one person; `withTotal: false` leaves total_count null. */
  listAssets(
    tenant: string,
    range: OffsetQuery & { withTotal: boolean; assignedToEmail?: string },
  ): Envelope<Asset> {
    const all = this.#tenant(tenant).setup.assets;
    const email = range.assignedToEmail?.toLowerCase();
    const matching =
      email === undefined
        ? all
        : all.filter((asset) => asset.assigned_to_email?.toLowerCase() === email);
    const page = offsetPage(matching, range, (asset) => ({ ...asset }));
    return range.withTotal ? page : { items: page.items, total_count: null };
  }

  /** SaaS and discovered applications. */
  listApplications(tenant: string, range: OffsetQuery): Envelope<Application> {
    return offsetPage(this.#tenant(tenant).setup.applications, range, (app) => ({ ...app }));
  }

  /** Service catalog items. */
  listCatalogItems(tenant: string, range: OffsetQuery): Envelope<CatalogItem> {
    return offsetPage(this.#tenant(tenant).setup.catalogItems, range, (item) => ({ ...item }));
  }

  /** Replaces the service catalog, as an admin editing it would (tests: an empty one...). */
  setCatalogItems(tenant: string, items: readonly CatalogItem[]): void {
    this.#tenant(tenant).setup.catalogItems = items.map((item) => ({ ...item }));
  }

  /** Custom field definitions, one desk's when `deskId` is given (an unknown desk has none). */
  listCustomFields(
    tenant: string,
    query: OffsetQuery & { deskId?: string | undefined },
  ): Envelope<CustomField> {
    const all = this.#tenant(tenant).setup.customFields;
    const matching =
      query.deskId === undefined ? all : all.filter((field) => field.desk_id === query.deskId);
    return offsetPage(matching, query, (field) => structuredClone(field));
  }

  /** Replaces a desk's custom fields, as an admin editing the desk's form would. */
  setCustomFields(tenant: string, deskId: string, fields: readonly CustomField[]): void {
    const setup = this.#tenant(tenant).setup;
    setup.customFields = [
      ...setup.customFields.filter((field) => field.desk_id !== deskId),
      ...fields.map((field): CustomField => ({ ...structuredClone(field), desk_id: deskId })),
    ];
  }

  /**
   * Checks a create-ticket body's `custom_fields` against its desk's definitions, as the API
   * does (the seed's own history is written without them): every problem at once, each a 422
   * at `["body","custom_fields","<key>"]`. Keys the desk does not define pass through, but for
   * the reserved `catalog_item_id` (the catalog item the ticket was requested as), which must
   * name an item of the tenant's catalog when it has one.
   */
  checkCustomFields(tenant: string, input: CreateTicketInput): void {
    const state = this.#tenant(tenant);
    const itemId = input.custom_fields?.[CATALOG_ITEM_KEY];
    if (
      itemId !== undefined &&
      this.#capabilities.catalog &&
      !state.setup.catalogItems.some((item) => item.id === itemId)
    ) {
      throw new EmulatorValidationError([
        issue(
          ['body', 'custom_fields', CATALOG_ITEM_KEY],
          'Value error, no catalog item has this id',
          'value_error',
          itemId,
        ),
      ]);
    }
    if (input.desk_id === undefined || !this.#capabilities.customFields) return;
    this.#checkDesk(state, input.desk_id, ['body', 'desk_id']);
    const values = input.custom_fields ?? {};
    const issues = state.setup.customFields
      .filter((field) => field.desk_id === input.desk_id)
      .flatMap((field) => {
        const value = values[field.key];
        if (isEmptyValue(value) && !this.#capabilities.requiredFieldsOnCreate) return [];
        const problem = customFieldProblem(field, value);
        return problem ? [problem] : [];
      });
    if (issues.length > 0) throw new EmulatorValidationError(issues);
  }

  // An Update ticket's custom_fields, checked against the ticket's desk: each key given, every
  // problem at once, at the key (a required field given empty is missing).
  #checkUpdatedFields(state: TenantState, deskId: string | null, values: Record<string, unknown>) {
    if (!this.#capabilities.customFields || deskId === null) return;
    const issues = state.setup.customFields
      .filter((field) => field.desk_id === deskId && Object.hasOwn(values, field.key))
      .flatMap((field) => {
        const problem = customFieldProblem(field, values[field.key]);
        return problem ? [problem] : [];
      });
    if (issues.length > 0) throw new EmulatorValidationError(issues);
  }

  /** AI conversations, oldest first. */
  pageRequests(tenant: string, page: PageQuery): Envelope<ServiceRequest> {
    const requests = this.#tenant(tenant).requests;
    const from = (page.page - 1) * page.pageSize;
    return {
      items: requests.slice(from, from + page.pageSize).map((request) => ({ ...request })),
      total_count: requests.length,
    };
  }

  /** Records the AI agent's conversation about a ticket, or updates its status and summary. */
  recordConversation(
    tenant: string,
    ticketId: string,
    status: string,
    summary: string,
  ): ServiceRequest {
    const state = this.#tenant(tenant);
    const existing = state.requests.find((request) => request.ticket_id === ticketId);
    if (existing) {
      existing.status = status;
      existing.summary = summary;
      return { ...existing };
    }
    const request: ServiceRequest = {
      id: `req_${this.#nextRequest++}`,
      status,
      created_at: iso(this.now()),
      ticket_id: ticketId,
      summary,
    };
    state.requests.push(request);
    return { ...request };
  }

  // --- idempotency ---------------------------------------------------------------------------

  /**
   * Runs a create once per idempotency key and tenant: within 24 hours the same key with the
   * same fingerprint (operation and body) replays the first response, a different fingerprint
   * is a 400. Only successful responses are remembered; a failed attempt created nothing, so
   * running it again is the faithful answer. Synchronous on purpose (see the file comment).
   */
  runIdempotent(
    tenant: string,
    key: string | undefined,
    fingerprint: string,
    action: () => IdempotentResponse,
  ): IdempotentOutcome {
    if (key === undefined) return { ...action(), replayed: false };
    const state = this.#tenant(tenant);
    const now = this.now();
    dropExpired(state.idempotency, now);
    const existing = state.idempotency.get(key);
    if (existing && existing.expiresMs > now) {
      if (existing.fingerprint !== fingerprint) {
        throw new BusinessRuleError('X-Idempotency-Key was already used with a different request');
      }
      return { status: existing.status, body: structuredClone(existing.body), replayed: true };
    }
    const response = action();
    if (response.status >= 200 && response.status < 300) {
      state.idempotency.delete(key); // an expired record: re-inserting keeps the expiry order
      state.idempotency.set(key, {
        ...response,
        body: structuredClone(response.body),
        fingerprint,
        expiresMs: now + IDEMPOTENCY_TTL_MS,
      });
    }
    return { ...response, replayed: false };
  }

  // --- request counting ----------------------------------------------------------------------

  /** Counts one HTTP request, under the key it presented (if any). */
  countRequest(key: string | undefined): void {
    this.#totalRequests += 1;
    if (key !== undefined) this.#requestCounts.set(key, (this.#requestCounts.get(key) ?? 0) + 1);
  }

  /** HTTP requests received in all, or those that presented one key (any outcome). */
  requestCount(key?: string): number {
    return key === undefined ? this.#totalRequests : (this.#requestCounts.get(key) ?? 0);
  }

  // --- internals -----------------------------------------------------------------------------

  #tenant(name: string): TenantState {
    const state = this.#tenants.get(name);
    if (!state) throw new EmulatorNotFoundError(`Unknown tenant ${name}`);
    return state;
  }

  #lookup(state: TenantState, id: string): StoredTicket | undefined {
    const canonical = normaliseTicketId(id);
    return canonical === undefined ? undefined : state.byId.get(canonical);
  }

  #stored(tenant: string, id: string): StoredTicket {
    const stored = this.#lookup(this.#tenant(tenant), id);
    // The same answer for "does not exist" and "belongs to another tenant" (docs/platform-contract.md, "Behaviour").
    if (!stored) throw new EmulatorNotFoundError(`Ticket ${id} not found`);
    return stored;
  }

  #checkDesk(state: TenantState, deskId: string, loc: string[]): void {
    if (!state.setup.desks.some((desk) => desk.slug === deskId)) {
      throw new EmulatorValidationError([
        issue(loc, `Value error, unknown desk '${deskId}'`, 'value_error', deskId),
      ]);
    }
  }

  #agentEmail(state: TenantState, email: string, loc = ['body', 'assignee_email']): string {
    const employee = state.employeesByEmail.get(email.toLowerCase());
    if (employee?.role !== 'agent') {
      throw new EmulatorValidationError([
        issue(loc, 'Value error, not an agent of this organization', 'value_error', email),
      ]);
    }
    return employee.email;
  }

  #author(state: TenantState, email: string | undefined): Message['author'] {
    if (email === undefined) return { type: 'system', name: 'System', email: null };
    const employee = state.employeesByEmail.get(email.toLowerCase());
    const type: AuthorType = employee?.role === 'agent' ? 'agent' : 'requester';
    return { type, name: employee?.name ?? email, email: employee?.email ?? email };
  }

  #appendMessage(
    tenant: string,
    stored: StoredTicket,
    author: Message['author'],
    body: string,
    internal: boolean,
    sources: Message['sources'],
  ): Message {
    const ticket = stored.record;
    if (ticket.status === 'closed') {
      throw new BusinessRuleError(`Ticket ${ticket.id} is closed; it takes no new messages`);
    }
    const now = this.now();
    const message: Message = {
      id: `msg_${this.#nextMessage++}`,
      ticket_id: ticket.id,
      body,
      created_at: iso(now),
      internal,
      author,
      sources: sources.map((source) => ({ ...source })),
    };
    stored.messages.push(message);
    const actor = author.email ?? (author.type === 'ai_agent' ? AI_ACTOR : 'system');
    this.#log(stored, 'message_added', null, message.id, actor);
    // A requester speaking again means the ticket needs attention again.
    const reopens = ticket.status === 'resolved' || ticket.status === 'waiting_on_requester';
    const reopened = author.type === 'requester' && !internal && reopens;
    const clocksBefore = this.#clockFields(stored);
    // The first public word of an agent or the AI agent meets the first response's clock.
    if (!internal && (author.type === 'agent' || author.type === 'ai_agent'))
      stored.sla = onResponse(stored.sla, now);
    if (reopened) {
      this.#log(stored, 'status_changed', ticket.status, 'open', actor);
      ticket.status = 'open';
      stored.sla = onStatusChange(stored.sla, 'open', now);
    }
    const clocksMoved = this.#clocksMoved(stored, clocksBefore);
    this.#touch(stored, now);
    this.#emit({
      type: 'message_added',
      tenant,
      ticketId: ticket.id,
      message: copyMessage(message),
      atMs: now,
    });
    // The reopening is a change of its own: a listener told only of the message would not know
    // the status moved.
    if (reopened || clocksMoved) {
      this.#emit({
        type: 'ticket_updated',
        tenant,
        ticketId: ticket.id,
        fields: [
          ...(reopened ? (['status'] as const) : []),
          ...(clocksMoved ? (['service_levels'] as const) : []),
        ],
        atMs: now,
      });
    }
    return copyMessage(message);
  }

  #log(
    stored: StoredTicket,
    type: string,
    from: string | null,
    to: string | null,
    actor: string,
    extra: Record<string, string> = {},
  ): void {
    stored.activity.push({
      id: `act_${this.#nextActivity++}`,
      ticket_id: stored.record.id,
      type,
      from,
      to,
      actor,
      created_at: iso(this.now()),
      ...extra,
    });
  }

  // updated_at is the time of the last change, to the millisecond, as a database column would
  // be; two changes in one millisecond share it (clients overlap their cursor for that).
  #touch(stored: StoredTicket, atMs: number): void {
    stored.updatedMs = atMs;
    stored.record.updated_at = iso(atMs);
  }

  #changed(tenant: string, stored: StoredTicket, fields: TicketField[]): void {
    const now = this.now();
    this.#touch(stored, now);
    this.#emit({ type: 'ticket_updated', tenant, ticketId: stored.record.id, fields, atMs: now });
  }

  #clockFields(stored: StoredTicket): ServiceLevelFields {
    return serviceLevelFields(stored.sla, stored.createdMs, stored.record.priority);
  }

  // Whether a due time or the pause moved since `before`, on a platform that shows them.
  #clocksMoved(stored: StoredTicket, before: ServiceLevelFields): boolean {
    return this.#capabilities.serviceLevels && dueTimesDiffer(before, this.#clockFields(stored));
  }

  #emit(event: ModelEvent): void {
    if (this.#replayAt !== undefined) return;
    for (const listener of this.#listeners) listener(event);
  }

  #view(tenant: string, stored: StoredTicket): Ticket {
    const record = stored.record;
    const ticket: Ticket = {
      ...record,
      custom_fields: { ...record.custom_fields },
      url: this.dashboardUrl(tenant, record.id),
    };
    // A platform without the field leaves it out rather than sending null.
    if (!this.#capabilities.updatedAt) delete ticket.updated_at;
    if (this.#capabilities.serviceLevels) Object.assign(ticket, this.#clockFields(stored));
    return ticket;
  }
}

/** The reserved custom-field key naming the catalog item a ticket was requested as. */
export const CATALOG_ITEM_KEY = 'catalog_item_id';

/** Fills in and checks capabilities: `updatedAfter` follows `updatedAt` unless given. */
export function resolveCapabilities(given: Partial<ModelCapabilities>): ModelCapabilities {
  const updatedAt = given.updatedAt ?? true;
  const updatedAfter = given.updatedAfter ?? updatedAt;
  // A filter on a field the client cannot see leaves it no cursor to send back.
  if (updatedAfter && !updatedAt) {
    throw new EmulatorConfigError(
      'capabilities: updatedAfter needs updatedAt (a cursor the client can read)',
    );
  }
  return {
    updatedAt,
    updatedAfter,
    customFields: given.customFields ?? true,
    catalog: given.catalog ?? true,
    requiredFieldsOnCreate: given.requiredFieldsOnCreate ?? true,
    serviceLevels: given.serviceLevels ?? true,
    ticketFilters: given.ticketFilters ?? true,
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function copyMessage(message: Message): Message {
  return {
    ...message,
    author: { ...message.author },
    sources: message.sources.map((source) => ({ ...source })),
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

// A custom field value that says nothing: a required field given it is missing.
function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

// Pydantic's types and wording for a value that is not of its field's type or options.
function customFieldProblem(field: CustomField, value: unknown) {
  const loc = ['body', 'custom_fields', field.key];
  if (isEmptyValue(value))
    return field.required ? issue(loc, 'Field required', 'missing') : undefined;
  const allowed = (field.options ?? []).map((option) => option.value);
  switch (field.type) {
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof number === 'number' && Number.isFinite(number)
        ? undefined
        : issue(loc, 'Input should be a valid number', 'float_type', value);
    }
    case 'select':
      return typeof value === 'string' && allowed.includes(value)
        ? undefined
        : issue(loc, enumMessage(allowed), 'enum', value);
    case 'multi_select':
      return Array.isArray(value) && value.every((item) => allowed.includes(item))
        ? undefined
        : issue(loc, enumMessage(allowed), 'enum', value);
    case 'date':
      return typeof value === 'string' && DATE.test(value) && parseIsoDateTime(value) !== undefined
        ? undefined
        : issue(
            loc,
            'Input should be a valid date in the format YYYY-MM-DD',
            'date_parsing',
            value,
          );
    case 'email':
      return typeof value === 'string' && EMAIL.test(value)
        ? undefined
        : issue(
            loc,
            'value is not a valid email address: An email address must have an @-sign and a domain.',
            'value_error',
            value,
          );
    default:
      return typeof value === 'string'
        ? undefined
        : issue(loc, 'Input should be a valid string', 'string_type', value);
  }
}

function offsetPage<T>(all: readonly T[], range: OffsetQuery, copy: (item: T) => T): Envelope<T> {
  return {
    items: all.slice(range.offset, range.offset + range.limit).map(copy),
    total_count: all.length,
  };
}

function deskList(state: TenantState, deskId: string): StoredTicket[] {
  let list = state.byDesk.get(deskId);
  if (!list) {
    list = [];
    state.byDesk.set(deskId, list);
  }
  return list;
}

function before(a: StoredTicket, b: StoredTicket): boolean {
  return a.createdMs < b.createdMs || (a.createdMs === b.createdMs && a.seq < b.seq);
}

// Index of the first element not before `item`: where it belongs in a sorted list.
function position(list: StoredTicket[], item: StoredTicket): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (before(list[mid] as StoredTicket, item)) low = mid + 1;
    else high = mid;
  }
  return low;
}

// New tickets almost always come last, so the common case is a push.
function insertSorted(list: StoredTicket[], item: StoredTicket): void {
  const last = list[list.length - 1];
  if (last === undefined || before(last, item)) list.push(item);
  else list.splice(position(list, item), 0, item);
}

function removeSorted(list: StoredTicket[], item: StoredTicket): void {
  const index = position(list, item);
  if (list[index] === item) list.splice(index, 1);
}

function firstCreatedAfter(list: StoredTicket[], afterMs: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((list[mid] as StoredTicket).createdMs <= afterMs) low = mid + 1;
    else high = mid;
  }
  return low;
}

// Keys were stored in expiry order (a constant TTL on a forward clock), so the expired ones
// are at the front of the map's insertion order.
function dropExpired(records: Map<string, IdempotencyRecord>, now: number): void {
  for (const [key, record] of records) {
    if (record.expiresMs > now) return;
    records.delete(key);
  }
}
