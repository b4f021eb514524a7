/** Calling the double's Web API the way Bolt's WebClient does: form-encoded, objects as JSON. */
import type { SlackDouble } from '../../tools/slack-double/index.ts';

/** A Web API answer, loosely typed for assertions. */
export type ApiAnswer = { ok: boolean; error?: string } & Record<string, unknown>;

/** POSTs a method with the bot token (or the given one) and returns the parsed answer. */
export async function callApi(
  double: SlackDouble,
  method: string,
  args: Record<string, unknown> = {},
  token: string | null = double.workspace.botToken,
): Promise<ApiAnswer> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    form.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${double.apiUrl}${method}`, {
    method: 'POST',
    headers,
    body: form.toString(),
  });
  return (await response.json()) as ApiAnswer;
}
