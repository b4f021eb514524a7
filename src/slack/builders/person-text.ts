/**
 * How a card names a person the platform knows by email (a ticket's assignee): a Slack mention
 * when the email is a Slack user's, else their name, so it reads as the thread's lines do.
 */
import { safeMrkdwn } from './mrkdwn.ts';

/** A person as Slack knows them, found by their email. */
export interface ShownPerson {
  /** Their Slack user id. */
  userId?: string | undefined;
  /** Their name in Slack. */
  name?: string | undefined;
}

/**
 * The person with this email, as mrkdwn: a mention, else their name, else (no one in Slack
 * has the email, or Slack could not be asked) the address itself, the only name the platform
 * gives.
 */
export function personText(email: string, person: ShownPerson | undefined, max = 200): string {
  // A Slack id is only ever one the app looked up, never text from the ticket.
  if (person?.userId && /^[UW][A-Z0-9]+$/.test(person.userId)) return `<@${person.userId}>`;
  if (person?.name?.trim()) return safeMrkdwn(person.name.trim(), max);
  return safeMrkdwn(email, max);
}

/** A team, named once ("People Team", never "Team People Team"). */
export function teamText(team: string, max = 200): string {
  return `:busts_in_silhouette: ${safeMrkdwn(team, max)}`;
}
