/**
 * Trims Slack's published API descriptions (https://github.com/slackapi/slack-api-specs, MIT) to
 * what the Slack double checks calls against: each Web API method's HTTP verb, arguments,
 * required arguments, non-string argument types and docs link, and each Events API event's docs
 * link and scopes with the event wrapper's required fields and examples. The full descriptions
 * are 1.3 MB; the trimmed one (`vendor/slack/slack-api-specs.trimmed.json`) is 60 kB.
 *
 * Regenerate it from a checkout of slack-api-specs (the commits below are the ones vendored):
 *
 *   git clone https://github.com/slackapi/slack-api-specs /tmp/slack-api-specs
 *   git -C /tmp/slack-api-specs show bc08db49625630e3585bf2f1322128ea04f2a7f3:web-api/slack_web_openapi_v2.json > /tmp/web.json
 *   git -C /tmp/slack-api-specs show fe03fc1d4899883ef5c0b4a30fe65b18bb2c16f1:events-api/slack_events_api_asyncapi_v2.json > /tmp/events.json
 *   node scripts/trim-slack-api-specs.ts --web-api /tmp/web.json --events-api /tmp/events.json \
 *     --web-api-commit bc08db49625630e3585bf2f1322128ea04f2a7f3 \
 *     --events-api-commit fe03fc1d4899883ef5c0b4a30fe65b18bb2c16f1 \
 *     --out vendor/slack/slack-api-specs.trimmed.json
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** The parts of Slack's OpenAPI 2.0 Web API description the trim reads. */
export interface OpenApiDescription {
  info: { title: string; version: string };
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; required?: boolean; type?: string }[];
        externalDocs?: { url?: string };
      }
    >
  >;
}

/** The parts of Slack's AsyncAPI 2.0 Events API description the trim reads. */
export interface AsyncApiDescription {
  asyncapi: string;
  info: { version: string };
  channels: Record<
    string,
    {
      subscribe?: {
        message?: { externalDocs?: { url?: string }; 'x-scopes-required'?: string[] };
      };
    }
  >;
  components: {
    schemas: {
      GenericEventWrapper: {
        required: string[];
        'x-examples'?: unknown[];
        properties: { event: { 'x-examples'?: unknown[] } };
      };
    };
  };
}

/** Where each description came from: the commit of slack-api-specs it was read at. */
export interface TrimSource {
  webApiCommit: string;
  eventsApiCommit: string;
}

/** One Web API method in the trimmed description. */
export interface TrimmedMethod {
  http: string;
  params: string[];
  required: string[];
  /** Arguments whose type is not a string, by name. */
  types: Record<string, string>;
  docs: string;
}

/** The trimmed description the Slack double reads. */
export interface TrimmedSlackApiSpecs {
  _source: Record<string, unknown>;
  web_api: { method_count: number; methods: Record<string, TrimmedMethod> };
  events_api: {
    wrapper_required: string[];
    events: { event: string; docs: string; scopes: string[] }[];
    wrapper_examples: unknown[];
    event_examples: unknown[];
  };
}

const REPOSITORY = 'https://github.com/slackapi/slack-api-specs';
const WEB_API_PATH = 'web-api/slack_web_openapi_v2.json';
const EVENTS_API_PATH = 'events-api/slack_events_api_asyncapi_v2.json';

function trimMethods(openapi: OpenApiDescription): Record<string, TrimmedMethod> {
  const methods: Record<string, TrimmedMethod> = {};
  for (const path of Object.keys(openapi.paths).sort()) {
    const name = path.replace(/^\//, '');
    for (const [verb, operation] of Object.entries(openapi.paths[path] ?? {})) {
      const parameters = operation.parameters ?? [];
      const params = [...new Set(parameters.map((p) => p.name))].sort();
      const required = [...new Set(parameters.filter((p) => p.required).map((p) => p.name))];
      const types: Record<string, string> = {};
      // In Slack's order, as the vendored file has them.
      for (const p of parameters) if (p.type && p.type !== 'string') types[p.name] = p.type;
      methods[name] = {
        http: verb.toUpperCase(),
        params,
        required: required.sort(),
        types,
        docs: operation.externalDocs?.url ?? `https://api.slack.com/methods/${name}`,
      };
    }
  }
  return methods;
}

function trimEvents(asyncapi: AsyncApiDescription): TrimmedSlackApiSpecs['events_api'] {
  const wrapper = asyncapi.components.schemas.GenericEventWrapper;
  const events = Object.values(asyncapi.channels).flatMap((channel) => {
    const message = channel.subscribe?.message;
    const docs = message?.externalDocs?.url;
    if (!message || !docs) return [];
    // The event's own name is the last part of its docs link (`message.im`); the channel's
    // path turns its dots into slashes, so it cannot be told from an underscore there.
    const event = docs.slice(docs.lastIndexOf('/') + 1);
    return [{ event, docs, scopes: [...(message['x-scopes-required'] ?? [])] }];
  });
  return {
    wrapper_required: [...wrapper.required],
    events,
    wrapper_examples: wrapper['x-examples'] ?? [],
    event_examples: wrapper.properties.event['x-examples'] ?? [],
  };
}

/** Trims Slack's full Web API and Events API descriptions to the double's shape. */
export function trimSlackApiSpecs(
  openapi: OpenApiDescription,
  asyncapi: AsyncApiDescription,
  source: TrimSource,
): TrimmedSlackApiSpecs {
  const methods = trimMethods(openapi);
  return {
    _source: {
      repository: REPOSITORY,
      license: 'MIT, Copyright (c) 2017 SlackAPI (see LICENSE.slack-api-specs beside this file)',
      openapi: {
        commit: source.webApiCommit,
        path: WEB_API_PATH,
        title: openapi.info.title,
        version: openapi.info.version,
      },
      asyncapi: {
        commit: source.eventsApiCommit,
        path: EVENTS_API_PATH,
        asyncapi: asyncapi.asyncapi,
        version: asyncapi.info.version,
      },
      made_by: 'scripts/trim-slack-api-specs.ts',
    },
    web_api: { method_count: Object.keys(methods).length, methods },
    events_api: trimEvents(asyncapi),
  };
}

/** The trimmed description as the vendored file holds it (one-space indent, final newline). */
export function formatTrimmed(trimmed: TrimmedSlackApiSpecs): string {
  return `${JSON.stringify(trimmed, null, 1)}\n`;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      'web-api': { type: 'string' },
      'events-api': { type: 'string' },
      'web-api-commit': { type: 'string', default: 'unknown' },
      'events-api-commit': { type: 'string', default: 'unknown' },
      out: { type: 'string' },
    },
  });
  if (!values['web-api'] || !values['events-api']) {
    console.error(
      'Usage: node scripts/trim-slack-api-specs.ts --web-api slack_web_openapi_v2.json --events-api slack_events_api_asyncapi_v2.json [--web-api-commit SHA] [--events-api-commit SHA] [--out FILE]',
    );
    process.exit(2);
  }
  const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
  const text = formatTrimmed(
    trimSlackApiSpecs(read(values['web-api']), read(values['events-api']), {
      webApiCommit: values['web-api-commit'],
      eventsApiCommit: values['events-api-commit'],
    }),
  );
  if (values.out) writeFileSync(values.out, text);
  else process.stdout.write(text);
}

if (import.meta.main) main();
