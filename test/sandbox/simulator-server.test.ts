/** The simulator's web server, over plain HTTP: the page, snapshots, actions and dashboard links. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunningSandbox,
  SANDBOX_REQUEST_CHANNEL,
  SANDBOX_TRIAGE_CHANNEL,
  startSandbox,
} from '../../tools/sandbox/sandbox.ts';
import type { SimulatorSnapshot } from '../../tools/sandbox/simulator-state.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';

describe('the simulator server', () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ eventRetryDelaysMs: [0, 200, 400] });
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  const act = (body: unknown, contentType = 'application/json') =>
    fetch(`${sandbox.url}/api/actions`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: JSON.stringify(body),
    });

  it('serves the page under a policy that lets no inline script run', async () => {
    const response = await fetch(sandbox.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await response.text()).toContain('<script type="module" src="/assets/app.js">');
  });

  it('refuses an action that is not sent as JSON', async () => {
    const response = await act(
      { type: 'openAppHome', as: defaultIds.alice, tab: 'home' },
      'text/plain',
    );
    expect(response.status).toBe(415);
  });

  it('refuses to act as someone a visitor cannot be', async () => {
    const response = await act({ type: 'openAppHome', as: defaultIds.noEmail, tab: 'home' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ ok: false, code: 'unknown_identity' });
  });

  it('gives the page a person’s channels and DM with the app, and the platform’s newest ticket', async () => {
    const response = await fetch(`${sandbox.url}/api/state?as=${defaultIds.bob}`);
    const snapshot = (await response.json()) as SimulatorSnapshot;
    expect(snapshot.me).toBe(defaultIds.bob);
    expect(snapshot.conversations.map((c) => c.name)).toEqual([
      'it-help',
      'laptop-help',
      'general',
      'Service Desk',
    ]);
    expect(snapshot.platform.selected?.ticket.id).toBe(snapshot.platform.tickets[0]?.id);
    expect(snapshot.platform.pinned).toBe(false);
  });

  it('files a ticket from a visitor’s direct message, delivered to the app as Slack would', async () => {
    const dm = sandbox.double.workspace.openIm(defaultIds.bob);
    const response = await act({
      type: 'message',
      as: defaultIds.bob,
      channel: dm,
      text: 'The printer on floor 3 jams on every page',
    });
    expect(await response.json()).toEqual({ ok: true });
    const ticket = await eventually(
      () =>
        sandbox.emulator.model
          .listTickets('acme', { page: 1, pageSize: 100, requesterEmail: 'bob@acme.example' })
          .items.find((t) => t.title.startsWith('The printer on floor 3')),
      10_000,
      'the ticket from the DM',
    );
    expect(ticket.channel).toBe('slack');
  });

  it('files every new message in #laptop-help as a ticket on the IT desk, its card in the thread', async () => {
    const response = await act({
      type: 'message',
      as: defaultIds.alice,
      channel: SANDBOX_REQUEST_CHANNEL,
      text: 'My laptop battery drains overnight',
    });
    expect(await response.json()).toEqual({ ok: true });
    const ticket = await eventually(
      () =>
        sandbox.emulator.model
          .listTickets('acme', { page: 1, pageSize: 100, requesterEmail: 'alice@acme.example' })
          .items.find((t) => t.title === 'My laptop battery drains overnight'),
      10_000,
      'the ticket from #laptop-help',
    );
    expect(ticket.desk_id).toBe('it');
    const written = sandbox.double.workspace
      .messages(SANDBOX_REQUEST_CHANNEL)
      .find((m) => m.text === 'My laptop battery drains overnight');
    await eventually(
      () =>
        (sandbox.double.workspace.thread(SANDBOX_REQUEST_CHANNEL, written?.ts ?? '') ?? []).some(
          (m) => m.text?.includes(ticket.id),
        ),
      10_000,
      'the card in the message’s thread',
    );
  });

  it('serves the platform’s ticket page that the card’s dashboard links lead to', async () => {
    const [ticket] = sandbox.emulator.model.listTickets('acme', { page: 1, pageSize: 1 }).items;
    if (!ticket?.url) throw new Error('the seed has no ticket with a url');
    expect(ticket.url.startsWith(`${sandbox.url}/platform/dashboard/acme/tickets/`)).toBe(true);
    const response = await fetch(ticket.url);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`<h1>${ticket.id}:`);
  });
  // Last: Bob stays in #it-triage.
  it('tells the app when /invite adds someone to a channel, as Slack does: a triage channel’s new member is its desk’s agent at once', async () => {
    const members = sandbox.slack.deps.triageMembers;
    const scope = { ticketId: 'IT-999', channel: SANDBOX_TRIAGE_CHANNEL };
    // The app has read the channel's members (Sam and the app) before Bob is invited.
    expect(await members.isDeskAgent(defaultIds.bob, scope)).toBe(false);
    const response = await act({
      type: 'command',
      as: defaultIds.agent,
      channel: SANDBOX_TRIAGE_CHANNEL,
      command: '/invite',
      text: '@bob',
    });
    expect(await response.json()).toMatchObject({ ok: true });
    await eventually(
      () => members.isDeskAgent(defaultIds.bob, scope),
      5_000,
      'Bob counted as the IT desk’s agent',
    );
  });
});
