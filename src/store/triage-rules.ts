/**
 * What both triage-channel backends share: the checks on what callers pass, and how stored
 * settings and the deployment's defaults combine. A stored empty value is `off`: the desk was
 * turned off in Slack, so its default no longer applies.
 */
import { requireKey } from './argument-checks.ts';
import { TRIAGE_CATCH_ALL, type TriageChannel } from './types.ts';

/** The stored value of a desk turned off in Slack while a default names a channel for it. */
export const TRIAGE_OFF = '';

/** A desk slug or the catch-all, checked. */
export function requireDesk(desk: string): string {
  return requireKey(desk, 'desk');
}

/** A channel id, checked. */
export function requireChannel(channel: string): string {
  return requireKey(channel, 'channel');
}

/** The defaults, each checked, so a bad one fails when the stores are made, not on a ticket. */
export function checkedDefaults(defaults: ReadonlyMap<string, string> | undefined) {
  const checked = new Map<string, string>();
  for (const [desk, channel] of defaults ?? []) {
    checked.set(requireDesk(desk), requireChannel(channel));
  }
  return checked;
}

/** A desk's channel from what is stored (`undefined`: nothing) and its default. */
export function effectiveChannel(
  stored: string | undefined,
  fallback: string | undefined,
): string | undefined {
  if (stored === undefined) return fallback;
  return stored === TRIAGE_OFF ? undefined : stored;
}

/** Where a desk's tickets go, from its own setting and the catch-all's. */
export function routeTo(
  desk: string | undefined,
  read: (desk: string) => string | undefined,
  defaults: ReadonlyMap<string, string>,
): string | undefined {
  const own =
    desk === undefined || desk === TRIAGE_CATCH_ALL
      ? undefined
      : effectiveChannel(read(desk), defaults.get(desk));
  return own ?? effectiveChannel(read(TRIAGE_CATCH_ALL), defaults.get(TRIAGE_CATCH_ALL));
}

/** Every desk's channel from what is stored and the defaults, by desk (the catch-all first). */
export function listChannels(
  stored: ReadonlyMap<string, string>,
  defaults: ReadonlyMap<string, string>,
): TriageChannel[] {
  const found: TriageChannel[] = [];
  for (const desk of new Set([...stored.keys(), ...defaults.keys()])) {
    const value = stored.get(desk);
    const channel = effectiveChannel(value, defaults.get(desk));
    if (channel !== undefined)
      found.push({ desk, channel, origin: value === undefined ? 'default' : 'slack' });
  }
  return found.sort((a, b) => (a.desk < b.desk ? -1 : a.desk > b.desk ? 1 : 0));
}

/** The desks whose channel is `channel`, and what each is stored as once cleared. */
export function clearedBy(
  channel: string,
  stored: ReadonlyMap<string, string>,
  defaults: ReadonlyMap<string, string>,
): { desk: string; becomes: typeof TRIAGE_OFF | undefined }[] {
  return listChannels(stored, defaults)
    .filter((entry) => entry.channel === channel)
    .map(({ desk }) => ({ desk, becomes: defaults.has(desk) ? TRIAGE_OFF : undefined }));
}

/** A subdesk's parents looked at, at most (a loop in the platform's data ends here). */
const MAX_DESK_DEPTH = 5;

/**
 * The triage channel of a desk, else of its nearest parent desk that has one (`parents`: each
 * subdesk's parent slug, as the platform's desks name them); not the catch-all's.
 */
export function deskTriageEntry(
  list: readonly TriageChannel[],
  desk: string | null | undefined,
  parents?: ReadonlyMap<string, string>,
): TriageChannel | undefined {
  let at = desk ?? undefined;
  for (let depth = 0; at && at !== TRIAGE_CATCH_ALL && depth <= MAX_DESK_DEPTH; depth++) {
    const here = at;
    const entry = list.find((one) => one.desk === here);
    if (entry) return entry;
    at = parents?.get(here);
  }
  return undefined;
}
