/**
 * Slack's own description of its Web API (slack-api-specs, trimmed to each method's arguments,
 * the required ones and its docs link), so the double refuses a call the description says
 * Slack does not know: a method it does not have, a required argument left out, an argument
 * no method of that name takes. The file is vendored in the repository (`vendor/slack/`), and
 * the double reads it when it starts, so a missing one stops it there rather than failing
 * every call.
 */
import { readFileSync } from 'node:fs';
import { ApiDescriptionMissingError } from '../errors.ts';
import { API_DESCRIPTION_PATH } from '../slack-files.ts';
import { ASSISTANT_METHOD_DESCRIPTIONS } from './assistant-methods.ts';
import type { MethodDescription } from './method-description.ts';

/**
 * Arguments Slack takes that its description (2017 to 2021) predates, by method; each says
 * why Slack accepts it. Anything not here and not in the description is refused.
 */
const NEWER_ARGUMENTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'chat.postMessage': {
    metadata: 'message metadata (2022): https://api.slack.com/metadata/using',
  },
  'chat.update': {
    metadata:
      'message metadata (2022), replaced with the message: https://api.slack.com/metadata/using',
  },
  'conversations.replies': {
    include_all_metadata:
      'returns the metadata of messages posted by other apps too (2022): https://api.slack.com/methods/conversations.replies',
  },
  'conversations.history': {
    include_all_metadata:
      'returns the metadata of messages posted by other apps too (2022): https://api.slack.com/methods/conversations.history',
  },
};

/** Arguments Slack takes on every method, each with why. */
const EVERY_METHOD_ARGUMENTS: Readonly<Record<string, string>> = {
  team_id:
    "names the workspace of an org-wide install; Bolt's WebClient adds it to every call made by the client it builds for a request from a known team",
};

/** Methods Slack has that the description does not list, each with why. */
export const NEWER_METHODS: Readonly<Record<string, MethodDescription & { why: string }>> = {
  'apps.connections.open': {
    why: 'Socket Mode (2020): the app-level token opens a WebSocket URL; no arguments',
    params: new Set(['token']),
    required: new Set(['token']),
    docs: 'https://api.slack.com/methods/apps.connections.open',
  },
  ...ASSISTANT_METHOD_DESCRIPTIONS,
  // Custom workflow steps (2023). Their arguments are the installed @slack/web-api's
  // (dist/types/request/functions.d.ts, held to it by api-description.test.ts).
  'functions.completeSuccess': {
    why: "ends a workflow step's run with its outputs: @slack/web-api FunctionsCompleteSuccessArguments",
    params: new Set(['token', 'function_execution_id', 'outputs']),
    required: new Set(['token', 'function_execution_id', 'outputs']),
    docs: 'https://docs.slack.dev/reference/methods/functions.completeSuccess',
  },
  'functions.completeError': {
    why: "ends a workflow step's run in error: @slack/web-api FunctionsCompleteErrorArguments",
    params: new Set(['token', 'function_execution_id', 'error']),
    required: new Set(['token', 'function_execution_id', 'error']),
    docs: 'https://docs.slack.dev/reference/methods/functions.completeError',
  },
};

interface DescriptionFile {
  web_api?: {
    methods?: Record<string, { params?: string[]; required?: string[]; docs?: string }>;
  };
}

/** Every method Slack has, by name. */
export type WebApiDescription = ReadonlyMap<string, MethodDescription>;

/**
 * Reads Slack's Web API description (the vendored one unless told): every method Slack has.
 * Throws `ApiDescriptionMissingError`, naming the file and how to restore it, when it is
 * missing, unreadable or lists no method.
 */
export function readWebApiDescription(path: string = API_DESCRIPTION_PATH): WebApiDescription {
  let file: DescriptionFile;
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as DescriptionFile;
  } catch (error) {
    throw new ApiDescriptionMissingError(path, error);
  }
  const methods = new Map<string, MethodDescription>();
  for (const [name, method] of Object.entries(file.web_api?.methods ?? {})) {
    const newer = [
      ...Object.keys(NEWER_ARGUMENTS[name] ?? {}),
      ...Object.keys(EVERY_METHOD_ARGUMENTS),
    ];
    methods.set(name, {
      params: new Set([...(method.params ?? []), ...newer]),
      required: new Set(method.required ?? []),
      docs: method.docs ?? `https://api.slack.com/methods/${name}`,
    });
  }
  if (methods.size === 0) throw new ApiDescriptionMissingError(path, 'no methods in it');
  for (const [name, method] of Object.entries(NEWER_METHODS)) methods.set(name, method);
  return methods;
}

/** What is wrong with a call by Slack's description: Slack's error and a detail message. */
export interface ContractProblem {
  error: 'unknown_method' | 'invalid_arguments' | 'unknown_argument';
  message: string;
}

/** `unknown_method` for a method Slack's description does not have. */
export function methodProblem(
  description: WebApiDescription,
  method: string,
): ContractProblem | undefined {
  if (description.has(method)) return undefined;
  return { error: 'unknown_method', message: `[ERROR] Slack's Web API has no method ${method}` };
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/**
 * Checks a call's arguments against Slack's description: every required one is there (the
 * token is checked before, from the Authorization header or the body) and none is one the
 * method does not take.
 */
export function argumentProblem(
  description: WebApiDescription,
  method: string,
  args: Readonly<Record<string, unknown>>,
): ContractProblem | undefined {
  const described = description.get(method);
  if (!described) return methodProblem(description, method);
  for (const name of described.required) {
    if (name !== 'token' && !present(args[name])) {
      return {
        error: 'invalid_arguments',
        message: `[ERROR] missing required field: ${name} (${described.docs})`,
      };
    }
  }
  const unknown = Object.keys(args).filter((name) => !described.params.has(name));
  if (unknown.length > 0) {
    return {
      error: 'unknown_argument',
      message: `[ERROR] ${method} takes no argument ${unknown.join(', ')} (${described.docs})`,
    };
  }
  return undefined;
}
