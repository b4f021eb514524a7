import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiDescriptionMissingError,
  ContractViolationError,
} from '../../../tools/slack-double/errors.ts';
import { defaultIds, SlackDouble, startSlackDouble } from '../../../tools/slack-double/index.ts';
import { readWebApiDescription } from '../../../tools/slack-double/web-api/api-description.ts';
import { callApi } from '../call-api.ts';

const ids = defaultIds;

describe('Slack’s Web API description in the double', () => {
  let double: SlackDouble;

  beforeEach(async () => {
    double = await startSlackDouble();
  });

  afterEach(async () => {
    double.takeViolations();
    await double.close();
  });

  it('reads every method Slack describes, with its required arguments and docs', () => {
    const description = readWebApiDescription();
    const postMessage = description.get('chat.postMessage');
    expect(description.size).toBeGreaterThan(170);
    expect([...(postMessage?.required ?? [])]).toEqual(['channel', 'token']);
    expect(postMessage?.docs).toBe('https://api.slack.com/methods/chat.postMessage');
  });

  it('answers invalid_arguments naming a required argument left out', async () => {
    const answer = await callApi(double, 'users.lookupByEmail', {});
    expect(answer).toEqual({
      ok: false,
      error: 'invalid_arguments',
      response_metadata: {
        messages: [
          '[ERROR] missing required field: email (https://api.slack.com/methods/users.lookupByEmail)',
        ],
      },
    });
  });

  it('counts the Authorization header as the token every method requires', async () => {
    const answer = await callApi(double, 'users.lookupByEmail', { email: 'alice@acme.example' });
    expect(answer.error).not.toBe('invalid_arguments');
    expect(double.takeViolations()).toEqual([]);
  });

  it('answers unknown_argument naming an argument the method does not take', async () => {
    const answer = await callApi(double, 'chat.postMessage', {
      channel: ids.itHelp,
      text: 'hi',
      icon: ':wave:',
    });
    expect(answer).toMatchObject({
      ok: false,
      error: 'unknown_argument',
      response_metadata: { messages: [expect.stringContaining('takes no argument icon')] },
    });
  });

  it('throws on close, naming the call, when the app sent one Slack does not know', async () => {
    const strict = await startSlackDouble();
    await callApi(strict, 'chat.update', { channel: ids.itHelp, ts: '1.2', text: 'x', mrkdwn: 1 });
    const closing = await strict.close().catch((error: unknown) => error);
    expect(closing).toBeInstanceOf(ContractViolationError);
    expect((closing as ContractViolationError).violations).toEqual([
      'chat.update: [ERROR] chat.update takes no argument mrkdwn (https://api.slack.com/methods/chat.update)',
    ]);
  });

  it('accepts message metadata, which Slack added after its description was written', async () => {
    const answer = await callApi(double, 'chat.postMessage', {
      channel: ids.itHelp,
      text: 'hi',
      metadata: { event_type: 'servicedesk_ticket', event_payload: { ticket_id: 'IT-1' } },
    });
    expect(answer.ok).toBe(true);
    expect(double.takeViolations()).toEqual([]);
  });

  it('accepts the team_id Bolt’s client adds to every call', async () => {
    const answer = await callApi(double, 'users.info', { user: ids.alice, team_id: ids.team });
    expect(answer.ok).toBe(true);
  });
});

describe('a Slack double without Slack’s Web API description', () => {
  /** Starts a double on `path`, and the error it stops with (a double that started is closed). */
  const startOn = async (path: string) => {
    const started = await startSlackDouble({ apiDescriptionPath: path }).catch(
      (error: unknown) => error,
    );
    if (started instanceof SlackDouble) await started.close();
    return started;
  };

  it('stops at start naming the missing file and how to restore it, rather than answering 500', async () => {
    const missing = join(tmpdir(), 'no-such-dir', 'slack-api-specs.trimmed.json');
    const error = await startOn(missing);
    expect(error).toBeInstanceOf(ApiDescriptionMissingError);
    expect((error as ApiDescriptionMissingError).code).toBe('api_description_missing');
    expect((error as Error).message).toContain(`${missing}, and it is not there`);
    expect((error as Error).message).toContain('git checkout -- vendor/slack');
  });

  it('stops at start when the file lists no Web API method', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slack-api-description-'));
    try {
      const empty = join(dir, 'slack-api-specs.trimmed.json');
      writeFileSync(empty, '{"web_api":{"methods":{}}}');
      const error = await startOn(empty);
      expect(error).toBeInstanceOf(ApiDescriptionMissingError);
      expect((error as Error).message).toContain('no methods in it');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
