import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BOT_EVENTS, BOT_SCOPES, COMMAND, FUNCTIONS, SHORTCUTS } from '../../src/slack/ids.ts';
import { MANIFEST_SCHEMA_PATH } from '../../tools/slack-double/slack-files.ts';

const manifest = parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8'));

describe('manifest.yml', () => {
  it('validates against the Slack app manifest schema', () => {
    const schema = JSON.parse(readFileSync(MANIFEST_SCHEMA_PATH, 'utf8'));
    delete schema.$schema;
    // strict: false because Slack's schema uses a non-standard "regex" keyword.
    const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(
      schema,
    );
    const valid = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('asks Slack for external select options at the interactivity request URL', () => {
    const { interactivity } = manifest.settings;
    expect(interactivity.message_menu_options_url).toBe(interactivity.request_url);
  });

  it('declares exactly the command the app registers', () => {
    expect(manifest.features.slash_commands.map((c: { command: string }) => c.command)).toEqual([
      COMMAND,
    ]);
  });

  it('declares exactly the shortcuts the app registers', () => {
    const declared = manifest.features.shortcuts
      .map((s: { callback_id: string }) => s.callback_id)
      .sort();
    expect(declared).toEqual(Object.values(SHORTCUTS).sort());
  });

  it('subscribes to exactly the events the app handles', () => {
    expect([...manifest.settings.event_subscriptions.bot_events].sort()).toEqual(
      [...BOT_EVENTS].sort(),
    );
  });

  it('asks for exactly the scopes the app uses', () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual(Object.keys(BOT_SCOPES).sort());
  });

  it('asks for chat:write.public, so cards can go to public channels the app was not invited to', () => {
    expect(manifest.oauth_config.scopes.bot).toContain('chat:write.public');
  });

  it('hears group direct messages, with the history scope Slack requires for them', () => {
    expect(manifest.settings.event_subscriptions.bot_events).toContain('message.mpim');
    expect(manifest.oauth_config.scopes.bot).toContain('mpim:history');
  });

  it('asks, for each kind of message event, the history scope Slack requires for it', () => {
    const messageEvents = manifest.settings.event_subscriptions.bot_events.filter((e: string) =>
      e.startsWith('message.'),
    );
    for (const event of messageEvents)
      expect(manifest.oauth_config.scopes.bot, event).toContain(
        `${event.slice('message.'.length)}:history`,
      );
  });

  it('unfurls links on its unfurl domain: link_shared, with links:read and links:write', () => {
    expect(manifest.settings.event_subscriptions.bot_events).toContain('link_shared');
    expect(manifest.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining(['links:read', 'links:write']),
    );
    expect(manifest.features.unfurl_domains.length).toBeGreaterThan(0);
  });

  it('opens in Slack’s AI pane, with the event it starts with and the scope its looks take', () => {
    expect(manifest.features.assistant_view.assistant_description).toEqual(expect.any(String));
    expect(manifest.features.assistant_view.suggested_prompts.length).toBeLessThanOrEqual(4);
    expect(manifest.settings.event_subscriptions.bot_events).toContain('assistant_thread_started');
    expect(manifest.oauth_config.scopes.bot).toContain('assistant:write');
  });

  it('declares exactly the workflow steps the app runs, with the inputs and outputs it reads and gives', () => {
    const declared = manifest.functions as Record<
      string,
      { input_parameters: Record<string, unknown>; output_parameters: Record<string, unknown> }
    >;
    expect(Object.keys(declared).sort()).toEqual(
      Object.values(FUNCTIONS)
        .map((f) => f.callbackId)
        .sort(),
    );
    for (const step of Object.values(FUNCTIONS)) {
      const found = declared[step.callbackId];
      expect(Object.keys(found?.input_parameters ?? {}).sort()).toEqual(
        Object.values(step.inputs).sort(),
      );
      expect(Object.keys(found?.output_parameters ?? {}).sort()).toEqual(
        Object.values(step.outputs).sort(),
      );
    }
  });

  it('asks only for a title to file a ticket from a workflow; the requester defaults to who ran it', () => {
    const inputs = manifest.functions[FUNCTIONS.createTicket.callbackId].input_parameters;
    const required = Object.entries(inputs as Record<string, { is_required?: boolean }>)
      .filter(([, input]) => input.is_required)
      .map(([name]) => name);
    expect(required).toEqual([FUNCTIONS.createTicket.inputs.title]);
    expect(inputs.requester.type).toBe('slack#/types/user_id');
    expect(inputs.interactivity.type).toBe('slack#/types/interactivity');
  });
});
