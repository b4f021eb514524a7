/** The simulator shows what manifest.yml declares: commands, shortcuts, events, App Home. */
import { describe, expect, it } from 'vitest';
import { loadAppProfile, parseAppProfile } from '../../tools/sandbox/app-manifest.ts';
import { ManifestUnreadableError } from '../../tools/sandbox/errors.ts';

describe('the app profile read from the manifest', () => {
  it('offers /ticket with the usage hint manifest.yml gives it', async () => {
    const profile = await loadAppProfile();
    expect(profile.commands).toContainEqual({
      command: '/ticket',
      description: 'File a ticket, or look one up',
      usageHint: '[what you need] | request [item] | ABC-123 | mine | queue | help',
    });
  });

  it('lists the message shortcut under More actions and the global one apart', async () => {
    const profile = await loadAppProfile();
    expect(profile.messageShortcuts.map((s) => [s.name, s.callbackId])).toContainEqual([
      'Create ticket',
      'create_ticket_from_message',
    ]);
    expect(profile.globalShortcuts.map((s) => s.callbackId)).toContain('new_ticket');
  });

  it('names the app by its bot user and knows which events Slack would send it', () => {
    const profile = parseAppProfile(`
display_information: { name: Desk }
features:
  app_home: { home_tab_enabled: true }
  bot_user: { display_name: Service Desk }
settings:
  event_subscriptions: { bot_events: [message.im, app_home_opened] }
`);
    expect(profile.name).toBe('Service Desk');
    expect(profile.homeTabEnabled).toBe(true);
    expect(profile.botEvents).toEqual(['message.im', 'app_home_opened']);
    expect(profile.commands).toEqual([]);
  });

  it('refuses a manifest it cannot read, with a coded error', () => {
    expect(() => parseAppProfile('display_information: [unclosed')).toThrow(
      ManifestUnreadableError,
    );
    try {
      parseAppProfile('features: {}');
    } catch (error) {
      expect((error as ManifestUnreadableError).code).toBe('manifest_unreadable');
    }
    expect.assertions(2);
  });
});
