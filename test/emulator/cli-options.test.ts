import { describe, expect, it } from 'vitest';
import { parseCli } from '../../tools/emulator/cli-options.ts';
import { EmulatorConfigError, type EmulatorOptions } from '../../tools/emulator/index.ts';
import { resolveCapabilities } from '../../tools/emulator/model.ts';

function options(argv: string[], env: Record<string, string> = {}): EmulatorOptions {
  const parsed = parseCli(argv, env);
  if (parsed === 'help') throw new Error('expected options, got help');
  return parsed;
}

const capabilitiesOf = (argv: string[]) => resolveCapabilities(options(argv).capabilities ?? {});

describe('emulator command line', () => {
  it('plays a platform with updated_at and updated_after unless told otherwise', () => {
    expect(capabilitiesOf([])).toEqual({
      updatedAt: true,
      updatedAfter: true,
      customFields: true,
      catalog: true,
      requiredFieldsOnCreate: true,
      serviceLevels: true,
      ticketFilters: true,
    });
  });

  it('turns updated_after off with --no-updated-after and keeps updated_at', () => {
    expect(capabilitiesOf(['--no-updated-after'])).toEqual({
      updatedAt: true,
      updatedAfter: false,
      customFields: true,
      catalog: true,
      requiredFieldsOnCreate: true,
      serviceLevels: true,
      ticketFilters: true,
    });
  });

  it('turns both off with --no-updated-at', () => {
    expect(capabilitiesOf(['--no-updated-at'])).toMatchObject({
      updatedAt: false,
      updatedAfter: false,
    });
  });

  it('plays a platform without custom fields with --no-custom-fields', () => {
    expect(capabilitiesOf(['--no-custom-fields']).customFields).toBe(false);
  });

  it('plays a platform that files without required fields with --no-required-fields-on-create', () => {
    expect(capabilitiesOf(['--no-required-fields-on-create']).requiredFieldsOnCreate).toBe(false);
  });

  it('plays a platform without assignee and several-status filters with --no-ticket-filters', () => {
    expect(capabilitiesOf(['--no-ticket-filters']).ticketFilters).toBe(false);
  });

  it('plays a platform without a service catalog with --no-catalog', () => {
    expect(capabilitiesOf(['--no-catalog']).catalog).toBe(false);
  });

  it('plays a platform without service-level clocks with --no-sla-clocks', () => {
    expect(capabilitiesOf(['--no-sla-clocks']).serviceLevels).toBe(false);
  });

  it('refuses --updated-after together with --no-updated-at', () => {
    expect(() => options(['--no-updated-at', '--updated-after'])).toThrow(EmulatorConfigError);
  });

  it('has no webhook without --webhook-url', () => {
    expect(options([]).webhook).toBeUndefined();
  });

  it('reads every webhook flag into the webhook option', () => {
    const parsed = options([
      '--webhook-url',
      'http://127.0.0.1:3000/servicedesk/webhook',
      '--webhook-secret',
      's3cret',
      '--webhook-bearer',
      '--webhook-tenant',
      'acme',
      '--webhook-drop-rate',
      '0.1',
      '--webhook-duplicate-rate',
      '0.2',
      '--webhook-delay-ms',
      '500',
      '--webhook-reorder',
      '--webhook-timeout-ms',
      '2000',
      '--webhook-retry-for-ms',
      '60000',
      '--random-seed',
      '9',
    ]);
    expect([parsed.webhook, parsed.randomSeed]).toEqual([
      {
        url: 'http://127.0.0.1:3000/servicedesk/webhook',
        secret: 's3cret',
        announceCreated: true,
        bearer: true,
        tenant: 'acme',
        dropRate: 0.1,
        duplicateRate: 0.2,
        delayMs: 500,
        reorder: true,
        timeoutMs: 2000,
        retryForMs: 60000,
      },
      9,
    ]);
  });

  it('takes the webhook secret from EMULATOR_WEBHOOK_SECRET when the flag is absent', () => {
    const parsed = options(['--webhook-url', 'http://127.0.0.1:3000/hook'], {
      EMULATOR_WEBHOOK_SECRET: 'from-env',
    });
    expect(parsed.webhook?.secret).toBe('from-env');
  });

  it('refuses a webhook URL without a secret', () => {
    expect(() => options(['--webhook-url', 'http://127.0.0.1:3000/hook'])).toThrow(
      /--webhook-secret/,
    );
  });

  it('refuses a webhook flag without --webhook-url', () => {
    expect(() => options(['--webhook-drop-rate', '0.5'])).toThrow(
      /--webhook-drop-rate needs --webhook-url/,
    );
  });

  it('refuses a webhook URL that is not http or https', () => {
    expect(() => options(['--webhook-url', 'localhost:3000', '--webhook-secret', 's'])).toThrow(
      /--webhook-url/,
    );
  });

  it('refuses a webhook drop rate outside 0 to 1', () => {
    const argv = ['--webhook-url', 'http://127.0.0.1:1/', '--webhook-secret', 's'];
    expect(() => options([...argv, '--webhook-drop-rate', '2'])).toThrow(/--webhook-drop-rate/);
  });
});
