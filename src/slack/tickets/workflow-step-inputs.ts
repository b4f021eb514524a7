/**
 * The inputs of the "Create a service-desk ticket" step as Slack hands them over (`inputs` of
 * `function_executed`), read into a filing, or the words of what is wrong with them. Workflow
 * Builder passes what its builder typed or mapped: an empty input may come as '' or not at all,
 * and the free-form desk fields as an object or as its JSON text.
 */
import { FUNCTIONS } from '../ids.ts';

const INPUTS = FUNCTIONS.createTicket.inputs;
const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;

/** A custom field's value as the platform takes it. */
export type DeskFieldValue = string | number | string[];

/** What the step files. */
export interface StepFiling {
  title: string;
  description?: string;
  /** The person the ticket is for. */
  requesterUserId: string;
  /** Who ran the workflow, when Slack says. */
  runnerUserId?: string;
  deskId?: string;
  priority?: (typeof PRIORITIES)[number];
  customFields?: Record<string, DeskFieldValue>;
}

/** The inputs read: a filing, or what is wrong with them. */
export type StepInputsRead = { ok: true; filing: StepFiling } | { ok: false; problem: string };

function text(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

// Slack's interactivity context: `{ interactor: { id }, interactivity_pointer }`.
function interactorOf(value: unknown): string | undefined {
  const interactor = (value as { interactor?: { id?: unknown } } | null | undefined)?.interactor;
  return text(interactor?.id);
}

function deskFields(
  value: unknown,
): { ok: true; fields?: Record<string, DeskFieldValue> } | { ok: false; problem: string } {
  let raw = value;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { ok: true };
    try {
      raw = JSON.parse(raw);
    } catch {
      return { ok: false, problem: 'Desk fields is not an object of field keys and values.' };
    }
  }
  if (raw === undefined || raw === null) return { ok: true };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, problem: 'Desk fields is not an object of field keys and values.' };
  const fields: Record<string, DeskFieldValue> = {};
  for (const [key, field] of Object.entries(raw)) {
    if (typeof field === 'string' || typeof field === 'number') fields[key] = field;
    else if (typeof field === 'boolean') fields[key] = String(field);
    else if (Array.isArray(field) && field.every((item) => typeof item === 'string'))
      fields[key] = field;
    else if (field !== null)
      return {
        ok: false,
        problem: `desk field "${key}" in Desk fields must be text, a number or a list of texts.`,
      };
  }
  return Object.keys(fields).length > 0 ? { ok: true, fields } : { ok: true };
}

/** Reads the step's inputs into a filing. */
export function readStepInputs(inputs: Readonly<Record<string, unknown>>): StepInputsRead {
  const title = text(inputs[INPUTS.title]);
  if (!title) return { ok: false, problem: 'Title is empty.' };
  const runner = interactorOf(inputs[INPUTS.interactivity]);
  const requester = text(inputs[INPUTS.requester]) ?? runner;
  if (!requester)
    return {
      ok: false,
      problem:
        'no Requester: choose one in the step, or start the workflow from a link or button so the person who runs it is known.',
    };
  const priority = text(inputs[INPUTS.priority])?.toLowerCase();
  if (priority !== undefined && !(PRIORITIES as readonly string[]).includes(priority))
    return {
      ok: false,
      problem: `Priority "${priority.slice(0, 40)}" is none of ${PRIORITIES.join(', ')}.`,
    };
  const fields = deskFields(inputs[INPUTS.customFields]);
  if (!fields.ok) return fields;
  const description = text(inputs[INPUTS.description]);
  const deskId = text(inputs[INPUTS.desk]);
  return {
    ok: true,
    filing: {
      title,
      requesterUserId: requester,
      ...(description ? { description } : {}),
      ...(runner ? { runnerUserId: runner } : {}),
      ...(deskId ? { deskId } : {}),
      ...(priority ? { priority: priority as StepFiling['priority'] & string } : {}),
      ...(fields.fields ? { customFields: fields.fields } : {}),
    },
  };
}
