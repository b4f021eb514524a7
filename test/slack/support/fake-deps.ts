/**
 * The set-up the Slack side's unit tests share: deps built from the parts a test gives (every
 * other part throws when touched, so a test says what it relies on), the Web API client a test
 * points at nock, a logger that keeps warnings, background tasks a test can wait for, and
 * `eventually`.
 */
import type { RespondArguments, RespondFn } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { type Logger, pino } from 'pino';
import type { Mirror } from '../../../src/mirror/mirror.ts';
import { interactiveClientOptions } from '../../../src/slack/app/slack-clients.ts';
import type {
  Directory,
  SlackDeps,
  SlackSettings,
  Tasks,
  TriageMembers,
} from '../../../src/slack/deps.ts';

export { eventually } from '../../../tools/stack/eventually.ts';

/**
 * What a test may give of a part: any of its members, nested objects in part too. Functions are
 * given whole, as the part declares them (a fake may take fewer arguments).
 */
export type Fake<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends object
    ? { [K in keyof T]?: Fake<T[K]> }
    : T;

/**
 * What a test may give of the Web API client: any of its methods, taking the method's arguments
 * and answering what the test needs. The answers are typed loosely on purpose: the SDK's
 * generated answer types disagree with its own Block Kit types (a posted card does not fit
 * `conversations.replies`' MessageElement), so a real answer would not fit them either.
 */
export type FakeWebApi<T> = T extends (...args: infer A) => Promise<unknown>
  ? (...args: A) => Promise<{ ok: boolean } & Record<string, unknown>>
  : T extends object
    ? { [K in keyof T]?: FakeWebApi<T[K]> }
    : T;

/** What a test gives of SlackDeps: parts in part, the settings as data on top of the defaults. */
export type FakeDeps = {
  [K in keyof SlackDeps]?: K extends 'settings'
    ? Partial<SlackSettings>
    : K extends 'client'
      ? FakeWebApi<WebClient> | WebClient
      : Fake<SlackDeps[K]>;
};

// The optional members of the deps' parts: code asks whether they are there (`byEmail?.()`), so
// an absent one is undefined rather than a fake that throws. Typed, so a renamed one fails tsc.
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
const OPTIONAL = new Set<string>([
  'serviceClocks',
  'byEmail',
  'deskChannels',
  'rememberTriageMessageId',
  'messageWritten',
] satisfies (
  | OptionalKeys<SlackDeps>
  | OptionalKeys<Directory>
  | OptionalKeys<TriageMembers>
  | OptionalKeys<Mirror>
)[]);

// Parts that are data, read member by member with optional ones unset: given whole, unfaked.
const DATA = new Set<string>(['settings'] satisfies (keyof SlackDeps)[]);

// Asked of any value by await, JSON and vitest's printing: a fake must not answer them.
const INSPECTED = new Set(['then', 'toJSON', 'asymmetricMatch', '$$typeof', 'nodeType']);

/** The settings a test gets unless it gives its own. */
export const TEST_SETTINGS: SlackSettings = {
  ticketEmoji: 'ticket',
  channelDesks: new Map(),
  dashboardUrl: undefined,
  submitWaitMs: 0,
};

/** A member no test gave: any call through it throws, naming it. */
function notExpected(path: string): never {
  const fail = () => {
    throw new Error(`${path} is not expected in this test`);
  };
  return new Proxy(fail, {
    get: (_target, prop) =>
      typeof prop === 'symbol' || INSPECTED.has(prop) ? undefined : notExpected(`${path}.${prop}`),
    apply: fail,
  }) as never;
}

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

// Plain objects only: a class instance keeps its own `this` (private fields break behind a proxy).
function filled(path: string, given: unknown): unknown {
  if (!isPlain(given)) return given;
  return new Proxy(given, {
    get(target, prop, receiver) {
      if (typeof prop === 'symbol') return Reflect.get(target, prop, receiver);
      if (prop in target) {
        const value = Reflect.get(target, prop, receiver);
        return DATA.has(prop) ? value : filled(`${path}.${prop}`, value);
      }
      if (INSPECTED.has(prop) || OPTIONAL.has(prop)) return undefined;
      return notExpected(`${path}.${prop}`);
    },
  });
}

/**
 * One part of the deps (or any interface) from the members a test gives; the others throw
 * "`name.member` is not expected in this test" when called.
 */
export function fakePart<T>(name: string, given: Fake<T>): T {
  return filled(name, given) as T;
}

/**
 * SlackDeps (and so any slice of them, `IntentDeps` or a listener's `Pick`) from the parts a
 * test gives; the logger is silent and the settings are TEST_SETTINGS unless given. A part the
 * slice itself makes optional (`Partial<Pick<…>>`) is a fake here, not absent: give it as
 * `undefined` for code that asks whether it is there, or give such a slice as an object of its
 * own type instead.
 */
export function fakeDeps(given: FakeDeps = {}): SlackDeps {
  const { settings, logger, ...parts } = given;
  return fakePart<SlackDeps>('deps', {
    ...parts,
    logger: (logger as Logger | undefined) ?? silentLogger(),
    settings: { ...TEST_SETTINGS, ...settings },
  } as Fake<SlackDeps>);
}

/** A logger that writes nothing. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** A logged line as a test reads it: its level's name and its message. */
export interface LoggedLine {
  level: string;
  msg: string;
}

/** A logger keeping its warnings and errors in order: their messages, and with their levels. */
export function warningsLogger(): { logger: Logger; warnings: string[]; logged: LoggedLine[] } {
  const warnings: string[] = [];
  const logged: LoggedLine[] = [];
  const logger = pino(
    { level: 'warn' },
    {
      write: (line: string) => {
        const { level, msg } = JSON.parse(line) as { level: number; msg: string };
        warnings.push(msg);
        logged.push({ level: pino.levels.labels[level] ?? String(level), msg });
      },
    },
  );
  return { logger, warnings, logged };
}

/** Background tasks that run at once; `running` holds them for a test to wait on. */
export function collectedTasks(): { tasks: Tasks; running: Promise<unknown>[] } {
  const running: Promise<unknown>[] = [];
  return { tasks: { run: (_label, task) => void running.push(task()) }, running };
}

/** The Slack Web API host tests point the client at (nock answers for it). */
export const SLACK_TEST_URL = 'https://slack.test';

/**
 * The interactive Web API client (as listeners get it) against SLACK_TEST_URL: its one retry
 * after a 5xx is kept, without its wait.
 */
export function interactiveTestClient(slackUrl = SLACK_TEST_URL): WebClient {
  return new WebClient('xoxb-test', {
    ...interactiveClientOptions,
    retryConfig: { retries: 1, minTimeout: 0, maxTimeout: 0 },
    slackApiUrl: `${slackUrl}/api/`,
  });
}

/** A Web API client answering only the methods a test gives (`{ chat: { postEphemeral } }`). */
export function fakeClient(methods: FakeWebApi<WebClient>): WebClient {
  return filled('client', methods) as WebClient;
}

/**
 * Bolt's `respond` (a command's or a click's response_url): hands each message, a bare text as
 * `{ text }`, to `onMessage`, and answers as Slack does.
 */
export function fakeRespond(onMessage: (message: RespondArguments) => void): RespondFn {
  return async (message) => {
    onMessage(typeof message === 'string' ? { text: message } : message);
    return new Response(null, { status: 200 });
  };
}
