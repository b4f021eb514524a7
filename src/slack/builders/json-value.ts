/**
 * Reading back what the app wrote into Slack as JSON (a button's value, a modal's private
 * metadata): Slack hands it back as a string, and an old or foreign one must read as "not ours"
 * rather than throw.
 */
import type { z } from 'zod';

/** `raw` parsed as JSON and checked against `schema`; undefined when it is neither. */
export function parseJsonAs<S extends z.ZodType>(
  schema: S,
  raw: string | undefined,
): z.infer<S> | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(raw ?? ''));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
