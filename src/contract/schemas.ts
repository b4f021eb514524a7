/**
 * The platform's records as zod schemas: the single place where the shape of a response is
 * decided. Every object schema is loose, so fields the platform adds later pass through.
 * Fields the specification states are required; fields the contract chose are optional, so a
 * real tenant that omits them still parses.
 */
import { z } from 'zod';

/** Ticket statuses chosen by the contract; `closed` is final. */
export const TICKET_STATUSES = [
  'new',
  'open',
  'in_progress',
  'waiting_on_requester',
  'resolved',
  'closed',
] as const;
/** A ticket status the contract knows. */
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Ticket priorities chosen by the contract. */
export const TICKET_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
/** A ticket priority the contract knows. */
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

/** Kinds of message author; `ai_agent` is the platform's own AI agent. */
export const AUTHOR_TYPES = ['requester', 'agent', 'ai_agent', 'system'] as const;
/** A kind of message author. */
export type AuthorType = (typeof AUTHOR_TYPES)[number];

/** Kinds of activity entry. */
export const ACTIVITY_TYPES = [
  'created',
  'status_changed',
  'priority_changed',
  'assigned',
  'message_added',
] as const;

/** Activity entries that change the ticket itself (not a message): each is one line in a thread. */
export const CHANGE_ACTIVITY_TYPES = ['status_changed', 'priority_changed', 'assigned'] as const;
/** A kind of change to the ticket itself. */
export type ChangeActivityType = (typeof CHANGE_ACTIVITY_TYPES)[number];

// A string the platform may extend: known values are typed, unknown ones still parse.
const openString = <T extends readonly string[]>(_known: T) =>
  z.string() as unknown as z.ZodType<T[number] | (string & {})>;

const nullableString = z.string().nullable().optional();

/** A ticket as the platform returns it. */
export const ticketSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  status: openString(TICKET_STATUSES),
  priority: openString(TICKET_PRIORITIES),
  created_at: z.string(),
  updated_at: nullableString,
  description: nullableString,
  desk_id: nullableString,
  requester_email: nullableString,
  assignee_email: nullableString,
  team: nullableString,
  channel: nullableString,
  url: nullableString,
  /** Values of the desk's custom fields, by key. */
  custom_fields: z.record(z.string(), z.unknown()).nullable().optional(),
  /** Service-level clocks (contract: "Service-level clocks on tickets"); absent without them. */
  first_response_due_at: nullableString,
  resolution_due_at: nullableString,
  first_responded_at: nullableString,
  sla_paused: z.boolean().nullable().optional(),
});
/** A ticket. */
export type Ticket = z.infer<typeof ticketSchema>;

/** A knowledge-base article an AI answer used. */
export const sourceSchema = z.looseObject({ title: z.string(), url: z.string() });

/** A message in a ticket's conversation. */
export const messageSchema = z.looseObject({
  id: z.string(),
  ticket_id: z.string(),
  body: z.string(),
  created_at: z.string(),
  internal: z.boolean(),
  author: z.looseObject({
    type: openString(AUTHOR_TYPES),
    name: z.string().nullable().optional(),
    email: nullableString,
  }),
  sources: z.array(sourceSchema).optional().default([]),
});
/** A ticket message. */
export type Message = z.infer<typeof messageSchema>;

/** One entry of a ticket's activity history. */
export const activitySchema = z.looseObject({
  id: z.string(),
  ticket_id: z.string(),
  type: openString(ACTIVITY_TYPES),
  from: z.string().nullable().optional(),
  to: z.string().nullable().optional(),
  actor: z.string().nullable().optional(),
  created_at: z.string(),
});
/** An activity entry. */
export type Activity = z.infer<typeof activitySchema>;

/** A desk; subdesks name their parent. */
export const deskSchema = z.looseObject({
  slug: z.string(),
  name: z.string(),
  parent_slug: nullableString,
});
/** A desk. */
export type Desk = z.infer<typeof deskSchema>;

/** An employee synced from HR and the identity provider. */
export const employeeSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  department: nullableString,
  role: openString(['employee', 'agent'] as const),
});
/** An employee. */
export type Employee = z.infer<typeof employeeSchema>;

/** A device or piece of hardware. */
export const assetSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  type: nullableString,
  serial_number: nullableString,
  assigned_to_email: nullableString,
});
/** An asset. */
export type Asset = z.infer<typeof assetSchema>;

/** A SaaS or discovered application. */
export const applicationSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  discovered: z.boolean().optional(),
});
/** An application. */
export type Application = z.infer<typeof applicationSchema>;

/** An item of the service catalog. */
export const catalogItemSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: nullableString,
  desk_id: nullableString,
});
/** A catalog item. */
export type CatalogItem = z.infer<typeof catalogItemSchema>;

/** Kinds of custom field a desk can define (contract); each maps to one Block Kit input. */
export const CUSTOM_FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  'select',
  'multi_select',
  'date',
  'email',
] as const;
/** A kind of custom field. */
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** One choice of a select custom field. */
export const customFieldOptionSchema = z.looseObject({ value: z.string(), label: z.string() });
/** One choice of a select custom field. */
export type CustomFieldOption = z.infer<typeof customFieldOptionSchema>;

/** A desk's custom field definition: what Create ticket takes in `custom_fields[key]`. */
export const customFieldSchema = z.looseObject({
  key: z.string(),
  name: z.string(),
  desk_id: nullableString,
  type: openString(CUSTOM_FIELD_TYPES),
  required: z.boolean().optional().default(false),
  options: z.array(customFieldOptionSchema).nullable().optional(),
  help: nullableString,
});
/** A custom field definition. */
export type CustomField = z.infer<typeof customFieldSchema>;

/** A conversation handled by the AI agent. */
export const requestSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  created_at: z.string(),
  ticket_id: z.string().nullable(),
  summary: nullableString,
});
/** An AI-agent request. */
export type ServiceRequest = z.infer<typeof requestSchema>;

/** The list envelope; `total_count` is null when the caller skipped the count. */
export const envelopeSchema = <T extends z.ZodType>(item: T) =>
  z.looseObject({ items: z.array(item), total_count: z.number().int().nullable() });
/** A page of a list. */
export interface Envelope<T> {
  items: T[];
  total_count: number | null;
}

/** A FastAPI-style validation error entry (422). */
export const validationIssueSchema = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
/** One invalid field of a 422. */
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

/** Body of Create a ticket. */
export const createTicketInputSchema = z.object({
  title: z.string().min(1),
  description: z.string().optional(),
  desk_id: z.string().optional(),
  priority: z.enum(TICKET_PRIORITIES).optional(),
  requester_email: z.string().optional(),
  channel: z.string().optional(),
  custom_fields: z.record(z.string(), z.unknown()).optional(),
});
/** Body of Create a ticket. */
export type CreateTicketInput = z.infer<typeof createTicketInputSchema>;

/** Body of Update a ticket: any of these. */
export const updateTicketInputSchema = z.object({
  status: z.enum(TICKET_STATUSES).optional(),
  priority: z.enum(TICKET_PRIORITIES).optional(),
  assignee_email: z.string().nullable().optional(),
  team: z.string().nullable().optional(),
  /** The desk's fields to set, merged into the ticket's (the contract's Update a ticket). */
  custom_fields: z.record(z.string(), z.unknown()).optional(),
  /** The employee the change is recorded as (its activity's actor); without it, the key. */
  actor_email: z.string().optional(),
});
/** Body of Update a ticket. */
export type UpdateTicketInput = z.infer<typeof updateTicketInputSchema>;

/** Body of Add a ticket message. */
export const addMessageInputSchema = z.object({
  body: z.string().min(1),
  author_email: z.string().optional(),
  internal: z.boolean().optional(),
});
/** Body of Add a ticket message. */
export type AddMessageInput = z.infer<typeof addMessageInputSchema>;
