/**
 * What the simulator shows of the app is what its manifest declares, so the page never drifts
 * from the real app: the slash commands with their usage hints, the message and global
 * shortcuts, the bot events Slack would deliver, and whether App Home has a Home tab.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import { type StepDefinition, stepDefinitionFromManifest } from '../slack-double/index.ts';
import { ManifestUnreadableError } from './errors.ts';

/** A slash command as the composer offers it. */
export interface ManifestCommand {
  command: string;
  description: string;
  usageHint: string;
}

/** A shortcut as the "More actions" menu (message) or the shortcuts menu (global) lists it. */
export interface ManifestShortcut {
  name: string;
  callbackId: string;
  description: string;
}

/** The parts of the manifest the simulator uses. */
export interface AppProfile {
  name: string;
  description: string;
  commands: ManifestCommand[];
  messageShortcuts: ManifestShortcut[];
  globalShortcuts: ManifestShortcut[];
  botEvents: string[];
  homeTabEnabled: boolean;
  messagesTabEnabled: boolean;
  /** The Workflow Builder steps it declares (`functions`), as Slack hands them to the app. */
  steps: StepDefinition[];
}

const manifestSchema = z.looseObject({
  display_information: z.looseObject({
    name: z.string(),
    description: z.string().optional().default(''),
  }),
  features: z
    .looseObject({
      app_home: z
        .looseObject({
          home_tab_enabled: z.boolean().optional().default(false),
          messages_tab_enabled: z.boolean().optional().default(true),
        })
        .optional(),
      bot_user: z.looseObject({ display_name: z.string() }).optional(),
      slash_commands: z
        .array(
          z.looseObject({
            command: z.string(),
            description: z.string().optional().default(''),
            usage_hint: z.string().optional().default(''),
          }),
        )
        .optional()
        .default([]),
      shortcuts: z
        .array(
          z.looseObject({
            name: z.string(),
            type: z.enum(['message', 'global']),
            callback_id: z.string(),
            description: z.string().optional().default(''),
          }),
        )
        .optional()
        .default([]),
    })
    .optional()
    .default({ slash_commands: [], shortcuts: [] }),
  functions: z.record(z.string(), z.looseObject({ title: z.string() })).optional(),
  settings: z
    .looseObject({
      event_subscriptions: z
        .looseObject({ bot_events: z.array(z.string()).optional().default([]) })
        .optional(),
    })
    .optional(),
});

/** The default manifest: the repository's own `manifest.yml`. */
export const DEFAULT_MANIFEST_URL = new URL('../../manifest.yml', import.meta.url);

/** Reads the app's profile from manifest text (YAML). */
export function parseAppProfile(text: string): AppProfile {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new ManifestUnreadableError('manifest.yml is not valid YAML', { cause: error });
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ManifestUnreadableError(
      `manifest.yml does not describe an app: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
    );
  }
  const manifest = parsed.data;
  const features = manifest.features;
  const shortcut = (s: (typeof features.shortcuts)[number]): ManifestShortcut => ({
    name: s.name,
    callbackId: s.callback_id,
    description: s.description,
  });
  return {
    name: features.bot_user?.display_name ?? manifest.display_information.name,
    description: manifest.display_information.description,
    commands: features.slash_commands.map((c) => ({
      command: c.command,
      description: c.description,
      usageHint: c.usage_hint,
    })),
    messageShortcuts: features.shortcuts.filter((s) => s.type === 'message').map(shortcut),
    globalShortcuts: features.shortcuts.filter((s) => s.type === 'global').map(shortcut),
    botEvents: manifest.settings?.event_subscriptions?.bot_events ?? [],
    homeTabEnabled: features.app_home?.home_tab_enabled ?? false,
    messagesTabEnabled: features.app_home?.messages_tab_enabled ?? true,
    steps: Object.keys(manifest.functions ?? {}).map((callbackId) =>
      stepDefinitionFromManifest(manifest, callbackId),
    ),
  };
}

/** Reads and parses a manifest file; the repository's own by default. */
export async function loadAppProfile(
  location: URL | string = DEFAULT_MANIFEST_URL,
): Promise<AppProfile> {
  let text: string;
  try {
    text = await readFile(location, 'utf8');
  } catch (error) {
    throw new ManifestUnreadableError(`manifest.yml could not be read`, { cause: error });
  }
  return parseAppProfile(text);
}
