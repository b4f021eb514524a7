/**
 * Which shared links are tickets' dashboard links: a link on one of the dashboard hosts
 * (SERVICE_DESK_DASHBOARD_HOSTS, or a subdomain of one, as Slack matches `unfurl_domains`) whose
 * path ends in a ticket ID, as the platform's `url` does (`…/tickets/IT-19`).
 */
import { normaliseTicketId } from '../../contract/ticket-id.ts';

/** The ticket a link is the dashboard page of, or undefined for any other link. */
export function ticketIdOfLink(link: string, hosts: readonly string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const host = url.hostname.toLowerCase();
  if (!hosts.some((h) => host === h || host.endsWith(`.${h}`))) return undefined;
  // The last non-empty segment: `/tickets/IT-19/` and `/tickets/IT-19` alike.
  const segments = url.pathname.split('/').filter(Boolean);
  const last = segments.at(-1);
  if (last === undefined) return undefined;
  let segment: string;
  try {
    segment = decodeURIComponent(last);
  } catch {
    return undefined;
  }
  return normaliseTicketId(segment);
}
