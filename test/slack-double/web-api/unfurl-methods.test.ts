import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultIds,
  type SlackDouble,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';
import { callApi } from '../call-api.ts';

const ids = defaultIds;
const LINK = 'https://desk.acme.example/tickets/IT-1';
const card = { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*IT-1* · VPN' } }] };

describe('chat.unfurl in the Slack double', () => {
  let double: SlackDouble;

  beforeEach(async () => {
    double = await startSlackDouble({ unfurlDomains: ['acme.example'] });
  });

  afterEach(async () => {
    await double.close();
  });

  /** A user's message with these links, as link_shared would have named them. */
  function sharedMessage(text: string): string {
    const stored = double.workspace.postMessage(ids.general, { user: ids.alice, text });
    const links = double.workspace.linksToUnfurl(text).map((l) => l.url);
    double.workspace.noteSharedLinks(ids.general, stored.ts, links);
    return stored.ts;
  }

  it('finds links on the unfurl domains and their subdomains only, each once', () => {
    const links = double.workspace.linksToUnfurl(
      `<${LINK}|IT-1> and ${LINK} and https://elsewhere.example/x and <https://acme.example/a>`,
    );
    expect(links).toEqual([
      { domain: 'acme.example', url: LINK },
      { domain: 'acme.example', url: 'https://acme.example/a' },
    ]);
  });

  it('attaches the unfurl to the message, and replaces it on a second call', async () => {
    const ts = sharedMessage(`see ${LINK}`);
    const answer = await callApi(double, 'chat.unfurl', {
      channel: ids.general,
      ts,
      unfurls: JSON.stringify({ [LINK]: card }),
    });
    expect(answer.ok).toBe(true);
    await callApi(double, 'chat.unfurl', { channel: ids.general, ts, unfurls: { [LINK]: card } });
    const attachments = double.workspace.message(ids.general, ts)?.attachments ?? [];
    expect(attachments).toHaveLength(1);
    expect(attachments[0]).toMatchObject({ app_unfurl_url: LINK, is_app_unfurl: true });
  });

  it('refuses a link the message did not share, and blocks Slack would refuse', async () => {
    const ts = sharedMessage(`see ${LINK}`);
    const other = await callApi(double, 'chat.unfurl', {
      channel: ids.general,
      ts,
      unfurls: { 'https://desk.acme.example/tickets/IT-2': card },
    });
    expect(other).toMatchObject({ ok: false, error: 'cannot_unfurl_url' });
    const bad = await callApi(double, 'chat.unfurl', {
      channel: ids.general,
      ts,
      unfurls: { [LINK]: { blocks: [{ type: 'section' }] } },
    });
    expect(bad).toMatchObject({ ok: false, error: 'invalid_unfurls' });
    const missing = await callApi(double, 'chat.unfurl', {
      channel: ids.general,
      ts: '1.000001',
      unfurls: {},
    });
    expect(missing).toMatchObject({ ok: false, error: 'cannot_find_message' });
  });
});
