/**
 * `npm run slack-double`: the Slack double as a process. It serves the Web API for the app
 * (point SLACK_API_URL at it) and, given `--app`, reads console lines (one Slack user action per
 * line) from standard input and sends them to the app exactly as Slack would, signed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { readManifestScopes } from '../../src/ops/manifest-scopes.ts';
import { isPortInUse, portInUseLine } from '../../src/port-in-use.ts';
import { CONSOLE_HELP, type ConsoleCommand, parseConsoleLine } from './console-commands.ts';
import { defaultIds } from './default-workspace.ts';
import { ApiDescriptionMissingError } from './errors.ts';
import { type SlackDouble, startSlackDouble } from './slack-double-server.ts';
import { SlackDriver } from './slack-driver.ts';
import { REPOSITORY_ROOT } from './slack-files.ts';
import { type StepDefinition, stepDefinitionFromManifest } from './workflow-runs.ts';

// The app's Workflow Builder step, as the repository's manifest declares it (the first one).
function appStep(): StepDefinition {
  const manifest = parse(readFileSync(join(REPOSITORY_ROOT, 'manifest.yml'), 'utf8')) as {
    functions?: Record<string, unknown>;
  };
  const [callbackId] = Object.keys(manifest.functions ?? {});
  if (!callbackId) throw new Error('manifest.yml declares no workflow step');
  return stepDefinitionFromManifest(manifest, callbackId);
}

const USAGE = `Usage: npm run slack-double -- [--port 4020] [--host 127.0.0.1] [--app URL] [--signing-secret S] [--help]
  --port            the port it listens on; 0 picks a free one
  --app             the app's request URL, e.g. http://127.0.0.1:3000/slack/events (enables the console)
  --signing-secret  the secret the app verifies (its SLACK_SIGNING_SECRET); default double-signing-secret
  --help            prints this and exits`;

const USERS: Record<string, string> = {
  alice: defaultIds.alice,
  bob: defaultIds.bob,
  agent: defaultIds.agent,
};
const CHANNELS: Record<string, string> = {
  '#it-help': defaultIds.itHelp,
  '#general': defaultIds.general,
  '#it-agents': defaultIds.agentsPrivate,
};

function options() {
  try {
    const { values } = parseArgs({
      options: {
        port: { type: 'string', default: '4020' },
        host: { type: 'string', default: '127.0.0.1' },
        app: { type: 'string' },
        'signing-secret': { type: 'string', default: 'double-signing-secret' },
        help: { type: 'boolean', default: false },
      },
    });
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new Error('--port must be 0 to 65535');
    if (values.app !== undefined && !URL.canParse(values.app))
      throw new Error('--app must be a URL');
    return { ...values, port };
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

/** Prints each Web API call the app makes, as it happens. */
function narrate(double: SlackDouble, write: (line: string) => void): () => void {
  let seen = 0;
  let postsSeen = 0;
  const timer = setInterval(() => {
    for (const call of double.calls.slice(seen)) {
      const args = call.args as Record<string, unknown>;
      const where = typeof args.channel === 'string' ? ` ${args.channel}` : '';
      const thread = typeof args.thread_ts === 'string' ? ` (thread ${args.thread_ts})` : '';
      const text =
        typeof args.text === 'string' ? `: ${args.text.replace(/\s+/g, ' ').slice(0, 160)}` : '';
      const answeredTs = (call.response as { ts?: unknown }).ts;
      const ts = typeof answeredTs === 'string' ? ` → ts ${answeredTs}` : '';
      const error = call.response.ok === false ? ` → error ${String(call.response.error)}` : '';
      write(`  ← app called ${call.method}${where}${thread}${text}${ts}${error}`);
    }
    seen = double.calls.length;
    for (const post of double.responseUrlPosts.slice(postsSeen)) {
      const body = post.body as { text?: string };
      write(
        `  ← app answered privately: ${String(body.text ?? '')
          .replace(/\s+/g, ' ')
          .slice(0, 200)}`,
      );
    }
    postsSeen = double.responseUrlPosts.length;
  }, 100);
  return () => clearInterval(timer);
}

async function run(): Promise<void> {
  const opts = options();
  if (opts.help) {
    console.log(USAGE);
    return;
  }
  let double: SlackDouble;
  try {
    // The token's scopes are manifest.yml's, as an installed app's are, so `npm run doctor`
    // has them to compare.
    double = await startSlackDouble({
      port: opts.port,
      host: opts.host,
      oauthScopes: await readManifestScopes(),
    });
  } catch (error) {
    if (error instanceof ApiDescriptionMissingError) {
      console.error(`slack-double: ${error.message}`);
      process.exit(1);
    }
    if (!isPortInUse(error)) throw error;
    console.error(
      `slack-double: ${portInUseLine(error, opts.port, 'pass --port with a free one (--port 0 picks any)')}`,
    );
    process.exit(1);
  }
  console.log(`Slack double listening on ${double.url} (Web API at ${double.apiUrl})`);
  console.log(
    `  bot token: ${defaultIds.botToken}; users: alice, bob, agent; channels: #it-help, #general`,
  );
  let driver: SlackDriver | undefined;
  let stopNarrating = () => {};
  const shutdown = async () => {
    stopNarrating();
    await driver?.close();
    await double.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  if (!opts.app) {
    console.log('  (no --app given: serving the Web API only)');
    return;
  }
  driver = new SlackDriver({ appUrl: opts.app, signingSecret: opts['signing-secret'], double });
  stopNarrating = narrate(double, (line) => console.log(line));
  console.log(`  sending to ${opts.app}; type help for commands`);
  const state = { user: defaultIds.alice as string, channel: defaultIds.itHelp as string };
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    const command = parseConsoleLine(line);
    if (!command) continue;
    if (command.kind === 'quit') break;
    try {
      await perform(command, double, driver, state);
    } catch (error) {
      console.log(`  ! ${(error as Error).message}`);
    }
  }
  // Give the app's last calls a moment to be narrated.
  await new Promise((r) => setTimeout(r, 1_000));
  await shutdown();
}

async function perform(
  command: ConsoleCommand,
  double: SlackDouble,
  driver: SlackDriver,
  state: { user: string; channel: string },
): Promise<void> {
  const workspace = double.workspace;
  switch (command.kind) {
    case 'as':
      state.user = USERS[command.user] ?? command.user;
      console.log(`  you are ${workspace.user(state.user)?.real_name ?? state.user}`);
      return;
    case 'in':
      state.channel =
        command.channel === 'dm'
          ? workspace.openIm(state.user)
          : (CHANNELS[command.channel] ?? command.channel);
      console.log(`  you are in ${command.channel} (${state.channel})`);
      return;
    case 'slash': {
      const result = await driver.slashCommand({
        userId: state.user,
        channelId: state.channel,
        command: command.command,
        text: command.text,
      });
      const body = result.body as { text?: string } | undefined;
      console.log(
        `  → ${result.status} in ${Math.round(result.ackMs)} ms${body?.text ? `: ${body.text.slice(0, 200)}` : ''}`,
      );
      return;
    }
    case 'say': {
      const posted = await driver.userPosts({
        userId: state.user,
        channelId: state.channel,
        text: command.text,
        ...(command.threadTs ? { threadTs: command.threadTs } : {}),
      });
      console.log(
        `  → posted ts ${posted.ts}${posted.delivery ? ` (app answered ${posted.delivery.status})` : ''}`,
      );
      return;
    }
    case 'react': {
      const result = await driver.userReacts({
        userId: state.user,
        channelId: state.channel,
        ts: command.ts,
        reaction: command.reaction,
      });
      console.log(
        `  → reacted${result.delivery ? ` (app answered ${result.delivery.status})` : ''}`,
      );
      return;
    }
    case 'shortcut': {
      const result = await driver.messageShortcut({
        callbackId: 'create_ticket_from_message',
        userId: state.user,
        channelId: state.channel,
        messageTs: command.ts,
      });
      console.log(`  → ${result.status}; a modal opens (submit to file it)`);
      return;
    }
    case 'new': {
      const result = await driver.globalShortcut({ callbackId: 'new_ticket', userId: state.user });
      console.log(`  → ${result.status}; a modal opens (submit to file it)`);
      return;
    }
    case 'submit': {
      const view = workspace.modalStack(state.user).at(-1);
      if (!view) throw new Error('you have no open modal: run /ticket first');
      const result = await driver.viewSubmission({
        viewId: view.id,
        userId: state.user,
        values: command.values,
      });
      console.log(
        `  → ${result.status}${result.responseAction ? ` (${result.responseAction})` : ''}: ${JSON.stringify(result.body ?? {}).slice(0, 300)}`,
      );
      return;
    }
    case 'workflow': {
      const { run, delivery } = await driver.runWorkflowStep({
        definition: appStep(),
        inputs: command.inputs,
        userId: state.user,
      });
      console.log(`  → ${delivery.status}; run ${run.executionId} in progress`);
      // Said once the app completes the run (or Slack gives up on it).
      const unsubscribe = double.onActivity(() => {
        const now = double.runs.get(run.executionId);
        if (!now || now.state === 'in_progress') return;
        unsubscribe();
        console.log(
          `  run ${run.executionId} ${now.state}: ${now.state === 'completed' ? JSON.stringify(now.outputs) : (now.error ?? '')}`,
        );
      });
      return;
    }
    case 'show':
      for (const message of workspace.messages(state.channel)) {
        // Replies are shown under their parent.
        if (message.thread_ts && message.thread_ts !== message.ts) continue;
        const who =
          workspace.user(message.user ?? '')?.real_name ?? message.user ?? message.bot_id ?? '?';
        console.log(
          `  [${message.ts}] ${who}: ${(message.text ?? '').replace(/\s+/g, ' ').slice(0, 160)}`,
        );
        for (const reply of (workspace.thread(state.channel, message.ts) ?? []).slice(1)) {
          const replier =
            workspace.user(reply.user ?? '')?.real_name ?? reply.user ?? reply.bot_id ?? '?';
          console.log(
            `      ↳ [${reply.ts}] ${replier}: ${(reply.text ?? '').replace(/\s+/g, ' ').slice(0, 160)}`,
          );
        }
      }
      return;
    case 'help':
      console.log(CONSOLE_HELP);
      return;
    case 'invalid':
      console.log(`  ! ${command.reason}`);
      return;
    case 'quit':
      return;
  }
}

await run();
