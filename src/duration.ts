/** Durations as people type them in the environment: 45s, 90m, 72h, 3d, 2w. */

const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** A duration such as 3d, 72h, 90m or 45s in ms (0 alone needs no unit); undefined when it is not one. */
export function durationMs(value: string): number | undefined {
  const text = value.trim().toLowerCase();
  if (text === '0') return 0;
  const match = /^(\d+(?:\.\d+)?)\s*([smhdw])$/.exec(text);
  if (!match) return undefined;
  return Math.round(Number(match[1]) * (UNIT_MS[match[2] as string] as number));
}
