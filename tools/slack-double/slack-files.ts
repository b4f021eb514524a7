/**
 * Where Slack's own descriptions are read from: `vendor/slack/` in the repository, with their
 * MIT licences, so that a clone with nothing beside it runs the double, the sandbox and the
 * manifest checks. Every path here is inside the repository (`test/slack-double/slack-files.test.ts`).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this file is in `tools/slack-double/`). */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The folder of vendored Slack descriptions; its README says where each came from. */
export const SLACK_VENDOR_DIR = join(REPOSITORY_ROOT, 'vendor', 'slack');

/** Slack's Web API and Events API description, trimmed by `scripts/trim-slack-api-specs.ts`. */
export const API_DESCRIPTION_PATH = join(SLACK_VENDOR_DIR, 'slack-api-specs.trimmed.json');

/** Slack's JSON schema of an app manifest, major version 1 (manifest.yml's). */
export const MANIFEST_SCHEMA_PATH = join(SLACK_VENDOR_DIR, 'manifest.schema.1.0.0.json');

/** Each vendored description with the licence file that covers it. */
export const VENDORED_SLACK_FILES: readonly { path: string; licence: string }[] = [
  { path: API_DESCRIPTION_PATH, licence: join(SLACK_VENDOR_DIR, 'LICENSE.slack-api-specs') },
  { path: MANIFEST_SCHEMA_PATH, licence: join(SLACK_VENDOR_DIR, 'LICENSE.manifest-schema') },
];
