/**
 * The script that trims Slack's published descriptions into the one the Slack double reads:
 * the same shape as the vendored file, from a tiny pair of full descriptions.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type AsyncApiDescription,
  formatTrimmed,
  type OpenApiDescription,
  trimSlackApiSpecs,
} from '../../scripts/trim-slack-api-specs.ts';
import { API_DESCRIPTION_PATH } from '../../tools/slack-double/slack-files.ts';

const openapi: OpenApiDescription = {
  info: { title: 'Slack Web API', version: '1.7.0' },
  paths: {
    '/users.info': {
      get: {
        externalDocs: { url: 'https://api.slack.com/methods/users.info' },
        parameters: [
          { name: 'token', required: true, type: 'string' },
          { name: 'user', type: 'string' },
          { name: 'include_locale', type: 'boolean' },
        ],
      },
    },
    '/chat.postMessage': {
      post: {
        externalDocs: { url: 'https://api.slack.com/methods/chat.postMessage' },
        parameters: [
          { name: 'token', required: true, type: 'string' },
          { name: 'thread_ts', type: 'number' },
          { name: 'channel', required: true, type: 'string' },
          { name: 'mrkdwn', type: 'boolean' },
        ],
      },
    },
  },
};

const asyncapi: AsyncApiDescription = {
  asyncapi: '2.0.0',
  info: { version: '1.0.0' },
  channels: {
    'slack/events/message/im': {
      subscribe: {
        message: {
          externalDocs: { url: 'https://api.slack.com/events/message.im' },
          'x-scopes-required': ['im:history'],
        },
      },
    },
  },
  components: {
    schemas: {
      GenericEventWrapper: {
        required: ['token', 'event'],
        'x-examples': [{ type: 'event_callback' }],
        properties: { event: { 'x-examples': [{ type: 'message' }] } },
      },
    },
  },
};

const source = { webApiCommit: 'aaa', eventsApiCommit: 'bbb' };

describe('trimming Slack’s API descriptions', () => {
  it('keeps each method’s verb, sorted arguments, required ones, non-string types and docs', () => {
    const { web_api } = trimSlackApiSpecs(openapi, asyncapi, source);
    expect(web_api.method_count).toBe(2);
    expect(Object.keys(web_api.methods)).toEqual(['chat.postMessage', 'users.info']);
    expect(web_api.methods['chat.postMessage']).toEqual({
      http: 'POST',
      params: ['channel', 'mrkdwn', 'thread_ts', 'token'],
      required: ['channel', 'token'],
      types: { thread_ts: 'number', mrkdwn: 'boolean' },
      docs: 'https://api.slack.com/methods/chat.postMessage',
    });
  });

  it('names each event by its docs link, with its scopes, and keeps the wrapper’s fields and examples', () => {
    const { events_api } = trimSlackApiSpecs(openapi, asyncapi, source);
    expect(events_api).toEqual({
      wrapper_required: ['token', 'event'],
      events: [
        {
          event: 'message.im',
          docs: 'https://api.slack.com/events/message.im',
          scopes: ['im:history'],
        },
      ],
      wrapper_examples: [{ type: 'event_callback' }],
      event_examples: [{ type: 'message' }],
    });
  });

  it('makes the vendored file’s shape: the same keys, in the same order, at every level the double reads', () => {
    const vendored = JSON.parse(readFileSync(API_DESCRIPTION_PATH, 'utf8'));
    const trimmed = JSON.parse(formatTrimmed(trimSlackApiSpecs(openapi, asyncapi, source)));
    const keys = (o: object) => Object.keys(o);
    expect(keys(trimmed)).toEqual(keys(vendored));
    expect(keys(trimmed._source)).toEqual(keys(vendored._source));
    expect(keys(trimmed.web_api)).toEqual(keys(vendored.web_api));
    expect(keys(trimmed.web_api.methods['users.info'])).toEqual(
      keys(vendored.web_api.methods['users.info']),
    );
    expect(keys(trimmed.events_api)).toEqual(keys(vendored.events_api));
    expect(vendored._source.made_by).toBe('scripts/trim-slack-api-specs.ts');
  });
});
