/**
 * Why a Workflow Builder step ended in error, in plain words a workflow's builder acts on
 * (Slack shows `functions.completeError`'s text as it is, no mrkdwn): the step's own input
 * names where one is at fault, the desk field's key where the service desk refused one.
 */
import {
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from '../../servicedesk/index.ts';
import { PersonWithoutEmailError } from '../errors.ts';

// The step's inputs by the platform field they fill, as Workflow Builder shows them.
const INPUT_OF_FIELD: Readonly<Record<string, string>> = {
  title: 'Title',
  description: 'Description',
  requester_email: 'Requester',
  desk_id: 'Desk',
  priority: 'Priority',
};

// Slack shows the text whole; a runaway message from the platform must not fill the screen.
const MAX_DETAIL = 200;

function clip(text: string, max = MAX_DETAIL): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

// One refused field: a desk field by its key, else the step input that fills it.
function refusedField(loc: readonly (string | number)[], msg: string): string {
  const path = loc.map(String);
  const custom = path.indexOf('custom_fields');
  if (custom >= 0 && path[custom + 1] !== undefined)
    return `desk field "${clip(path[custom + 1] as string, 60)}" in Desk fields: ${clip(msg)}`;
  const field = path[path.length - 1] ?? 'body';
  const input = INPUT_OF_FIELD[field];
  return input ? `${input}: ${clip(msg)}` : `${clip(field, 60)}: ${clip(msg)}`;
}

/** The step's words for an input it cannot use (no requester, a priority it does not know). */
export function stepInputError(problem: string): string {
  return `The ticket was not filed: ${problem}`;
}

/** The step's words for a filing that failed for good. */
export function stepFailureText(error: unknown): string {
  const head = 'The ticket was not filed:';
  if (error instanceof ValidationError) {
    const fields = error.issues.map((issue) => refusedField(issue.loc, issue.msg));
    return fields.length > 0
      ? `${head} the service desk refused ${fields.join('; ')}.`
      : `${head} the service desk refused it as incomplete or invalid.`;
  }
  if (error instanceof PersonWithoutEmailError)
    return `${head} the requester (${error.userId}) has no email address in their Slack profile, so the service desk cannot tell who they are. Choose another Requester, or ask a Slack admin to add the email.`;
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError)
    return `${head} the service desk refused the Service Desk app's access key. Ask your Slack admin to check the app's key.`;
  if (error instanceof NotFoundError)
    return `${head} the service desk does not know something the step named (is Desk a desk's id?).`;
  if (error instanceof BadRequestError) {
    const detail = (error.body as { detail?: unknown } | null)?.detail;
    return typeof detail === 'string'
      ? `${head} the service desk said: ${clip(detail)}.`
      : `${head} the service desk refused it as breaking one of its rules.`;
  }
  const code = (error as { code?: unknown } | null)?.code;
  return `${head} something went wrong in the Service Desk app${typeof code === 'string' ? ` (${clip(code, 60)})` : ''}. Run the workflow again; if it keeps happening, ask your Slack admin.`;
}

/**
 * The step's words when the service desk has not answered within the step's time: the run
 * ends, and the filing goes on without it.
 */
export function stepStillFilingText(requester: string, waitedMinutes: number): string {
  return `The service desk has not answered for ${waitedMinutes} minute${waitedMinutes === 1 ? '' : 's'}. The ticket will still be filed when it answers, and the requester (${clip(requester, 80)}) gets it in their direct message with the Service Desk app; later steps of this run have no ticket ID.`;
}
