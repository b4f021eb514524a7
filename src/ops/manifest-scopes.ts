/** The bot scopes manifest.yml asks for: what the doctor compares the token's scopes against. */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { ManifestInvalidError } from './errors.ts';

/** manifest.yml at the root of the project (and of the container image). */
export const DEFAULT_MANIFEST_URL = new URL('../../manifest.yml', import.meta.url);

/** Reads `oauth_config.scopes.bot` from the manifest. */
export async function readManifestScopes(
  path: string | URL = DEFAULT_MANIFEST_URL,
): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ManifestInvalidError('could not be read', { cause: error });
  }
  let manifest: unknown;
  try {
    manifest = parse(text);
  } catch (error) {
    throw new ManifestInvalidError('is not valid YAML', { cause: error });
  }
  const scopes = (manifest as { oauth_config?: { scopes?: { bot?: unknown } } } | null)
    ?.oauth_config?.scopes?.bot;
  if (!Array.isArray(scopes) || !scopes.every((s): s is string => typeof s === 'string')) {
    throw new ManifestInvalidError('has no list of bot scopes at oauth_config.scopes.bot');
  }
  return scopes;
}
