import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

const base = {
  SLACK_BOT_TOKEN: 'xoxb-1-secret-bot-token',
  SLACK_SIGNING_SECRET: 'signing-secret-value',
  SERVICE_DESK_URL: 'http://127.0.0.1:4010',
  SERVICE_DESK_API_KEY: 'sd_acme_rw',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(base);
    expect(config.port).toBe(3000);
    expect(config.serviceDesk.variant).toBe('a');
    expect(config.slack.ticketEmoji).toBe('ticket');
    expect(config.redisUrl).toBeUndefined();
    expect(config.log.level).toBe('info');
    expect(config.role).toBe('all');
  });

  it('reads the process role, and refuses one it does not know', () => {
    const redis = { ...base, REDIS_URL: 'redis://127.0.0.1:6379' };
    expect(loadConfig({ ...redis, APP_ROLE: 'Web' }).role).toBe('web');
    expect(loadConfig({ ...redis, APP_ROLE: 'worker' }).role).toBe('worker');
    expect(problemsOf({ ...redis, APP_ROLE: 'both' })[0]).toMatch(
      /^APP_ROLE must be all .*web .*worker/,
    );
  });

  it('refuses a split role without Redis, which the roles share their queue through', () => {
    expect(problemsOf({ ...base, APP_ROLE: 'web' })[0]).toMatch(
      /^APP_ROLE is web, which needs REDIS_URL/,
    );
  });

  it('does not need the signing secret for a worker, which takes no Slack requests', () => {
    const { SLACK_SIGNING_SECRET: _, ...env } = base;
    const config = loadConfig({ ...env, REDIS_URL: 'redis://127.0.0.1:6379', APP_ROLE: 'worker' });
    expect(config.slack.signingSecret).toBeUndefined();
  });

  it('names a missing variable and says where to find its value', () => {
    const { SERVICE_DESK_API_KEY: _, ...env } = base;
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^SERVICE_DESK_API_KEY is required: create a Read\+Write access key/,
    );
  });

  it('reports every bad variable at once', () => {
    const problems = problemsOf({ ...base, PORT: 'eighty', SERVICE_DESK_VARIANT: 'c' });
    expect(problems.map((p) => p.split(' ')[0]).sort()).toEqual(['PORT', 'SERVICE_DESK_VARIANT']);
  });

  it('names every variable at fault in one pass, the signing secret included, when nothing is set', () => {
    expect(problemsOf({}).map((p) => p.split(' ')[0])).toEqual([
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'SERVICE_DESK_URL',
      'SERVICE_DESK_API_KEY',
    ]);
  });

  it('reports a split role without Redis alongside the other variables at fault', () => {
    const problems = problemsOf({ APP_ROLE: 'web' });
    expect(problems).toContainEqual(
      expect.stringMatching(/^APP_ROLE is web, which needs REDIS_URL/),
    );
    expect(problems).toContainEqual(expect.stringMatching(/^SERVICE_DESK_URL is required/));
  });

  it('says what a port must be and what it was given', () => {
    expect(problemsOf({ ...base, PORT: 'abc' })).toEqual([
      'PORT must be a whole number from 1 to 65535, or 0 for any free port (got "abc")',
    ]);
  });

  it('unfurls links on the dashboard URL’s host unless SERVICE_DESK_DASHBOARD_HOSTS names others', () => {
    expect(
      loadConfig({ ...base, SERVICE_DESK_DASHBOARD_URL: 'https://Desk.Acme.example/app' })
        .serviceDesk.dashboardHosts,
    ).toEqual(['desk.acme.example']);
    expect(
      loadConfig({ ...base, SERVICE_DESK_DASHBOARD_HOSTS: 'a.example, B.example' }).serviceDesk
        .dashboardHosts,
    ).toEqual(['a.example', 'b.example']);
  });

  it('unfurls links on the platform’s host when no dashboard URL or hosts are set', () => {
    expect(loadConfig(base).serviceDesk.dashboardHosts).toEqual([
      new URL(base.SERVICE_DESK_URL as string).hostname,
    ]);
  });

  it('accepts port 0, which asks for any free port', () => {
    expect(loadConfig({ ...base, PORT: '0' }).port).toBe(0);
  });

  it('words every bad value as what the variable must be, never in the validator’s words', () => {
    const bad: Record<string, string[]> = {
      SLACK_BOT_TOKEN: ['xoxp-1'],
      SLACK_APP_TOKEN: ['xoxb-1'],
      SLACK_API_URL: ['slack.com/api'],
      SERVICE_DESK_URL: ['acme.servicedesk.example'],
      SERVICE_DESK_VARIANT: ['c'],
      SERVICE_DESK_DASHBOARD_URL: ['dashboard'],
      SERVICE_DESK_DASHBOARD_HOSTS: ['https://acme.servicedesk.example/tickets'],
      SERVICE_DESK_RATE_PER_MINUTE: ['abc', '0', '1.5'],
      SERVICE_DESK_RATE_PER_HOUR: ['lots'],
      SERVICE_DESK_RATE_RESERVE: ['half', '1', '-0.1'],
      REDIS_URL: ['127.0.0.1:6379'],
      REDIS_KEY_PREFIX: ['has space'],
      PORT: ['abc', '-1', '65536', '80.5'],
      APP_ROLE: ['both'],
      LOG_LEVEL: ['loud'],
      TICKET_EMOJI: ['🎫'],
      AGENT_EMAILS: ['sam'],
      SLACK_AGENT_USERGROUP: ['@it-agents'],
      CHANNEL_DESKS: ['C123:it'],
    };
    for (const [name, values] of Object.entries(bad)) {
      for (const value of values) {
        const problems = problemsOf({ ...base, [name]: value });
        expect(problems, `${name}=${value}`).toHaveLength(1);
        expect(problems[0], `${name}=${value}`).toMatch(new RegExp(`^${name} (must|has) `));
        expect(problems[0], `${name}=${value}`).not.toMatch(
          /invalid input|expected \w+|received|too (small|big)|NaN|undefined/i,
        );
      }
    }
  });

  it('names the entry of AGENT_EMAILS that is not an email address', () => {
    expect(problemsOf({ ...base, AGENT_EMAILS: 'sam@acme.example, alex' })).toEqual([
      expect.stringMatching(/^AGENT_EMAILS has "alex", which is not an email address/),
    ]);
  });

  it('never prints a Redis URL, which may hold a password', () => {
    const problems = problemsOf({ ...base, REDIS_URL: 'http://:hunter2@redis.internal:6379' });
    expect(problems[0]).toMatch(/^REDIS_URL must be a redis:\/\//);
    expect(problems.join('\n')).not.toContain('hunter2');
  });

  it('never echoes a secret value in its messages', () => {
    const problems = problemsOf({ ...base, SLACK_BOT_TOKEN: 'xoxp-user-token-secret' });
    expect(problems.join('\n')).not.toContain('xoxp-user-token-secret');
    expect(problems[0]).toMatch(/^SLACK_BOT_TOKEN must be a bot token/);
  });

  it('treats an empty SLACK_API_URL as unset', () => {
    expect(loadConfig({ ...base, SLACK_API_URL: '' }).slack.apiUrl).toBeUndefined();
  });

  it('needs the signing secret only in HTTP mode', () => {
    const { SLACK_SIGNING_SECRET: _, ...env } = base;
    expect(problemsOf(env)[0]).toMatch(/^SLACK_SIGNING_SECRET is required in HTTP mode/);
    expect(loadConfig({ ...env, SLACK_APP_TOKEN: 'xapp-1-abc' }).slack.appToken).toBe('xapp-1-abc');
  });

  it('parses channel routing into a map of channel id to desk slug', () => {
    const config = loadConfig({ ...base, CHANNEL_DESKS: 'C123=it, c456=hr' });
    expect([...config.slack.channelDesks]).toEqual([
      ['C123', 'it'],
      ['C456', 'hr'],
    ]);
  });

  it('rejects a routing pair that is not channel=desk', () => {
    expect(problemsOf({ ...base, CHANNEL_DESKS: 'C123:it' })[0]).toMatch(
      /^CHANNEL_DESKS has "C123:it"/,
    );
  });

  it('lower-cases agent emails and strips colons from the emoji name', () => {
    const config = loadConfig({
      ...base,
      AGENT_EMAILS: 'Alex.Agent@acme.example',
      TICKET_EMOJI: ':admission_tickets:',
    });
    expect([...config.slack.agentEmails]).toEqual(['alex.agent@acme.example']);
    expect(config.slack.ticketEmoji).toBe('admission_tickets');
  });

  it('reads the rate limits and the reserve, defaulting to the platform’s 100/min, 1,000/h and 20%', () => {
    expect(loadConfig(base).serviceDesk.rateLimits).toEqual({
      perMinute: 100,
      perHour: 1000,
      reserve: 0.2,
    });
    const custom = loadConfig({
      ...base,
      SERVICE_DESK_RATE_PER_HOUR: '500',
      SERVICE_DESK_RATE_RESERVE: '0.3',
    });
    expect(custom.serviceDesk.rateLimits).toEqual({ perMinute: 100, perHour: 500, reserve: 0.3 });
  });

  it('refuses a reserve that would starve the poller', () => {
    expect(problemsOf({ ...base, SERVICE_DESK_RATE_RESERVE: '1' })[0]).toMatch(
      /^SERVICE_DESK_RATE_RESERVE must be a fraction/,
    );
  });
});

describe('request channels (CHANNEL_MODES, CHANNEL_AUTO_HOLD_SECONDS)', () => {
  it('parses channel modes into a map of channel id to auto or off', () => {
    const config = loadConfig({ ...base, CHANNEL_MODES: 'C123=auto, g456=OFF' });
    expect([...config.slack.channelModes]).toEqual([
      ['C123', 'auto'],
      ['G456', 'off'],
    ]);
  });

  it('holds an auto channel’s message 3 s by default, and as many seconds as set', () => {
    expect(loadConfig(base).slack.autoChannelHoldMs).toBe(3_000);
    expect(loadConfig({ ...base, CHANNEL_AUTO_HOLD_SECONDS: '0.5' }).slack.autoChannelHoldMs).toBe(
      500,
    );
  });

  it('names the mode it does not know and the two it does', () => {
    expect(problemsOf({ ...base, CHANNEL_MODES: 'C123=on' })[0]).toMatch(
      /^CHANNEL_MODES has "C123=on": the mode must be auto .* or off/,
    );
  });

  it('says a channel name is not its id', () => {
    expect(problemsOf({ ...base, CHANNEL_MODES: '#it-help=auto' })[0]).toMatch(
      /^CHANNEL_MODES has "#it-help=auto": "#it-help" is a channel name, not its id/,
    );
  });

  it('refuses a direct message, which files every message anyway', () => {
    expect(problemsOf({ ...base, CHANNEL_MODES: 'D123=auto' })[0]).toMatch(
      /^CHANNEL_MODES has "D123=auto": D123 is a direct message/,
    );
  });

  it('refuses a pair without a mode', () => {
    expect(problemsOf({ ...base, CHANNEL_MODES: 'C123' })[0]).toMatch(
      /^CHANNEL_MODES has "C123": write channel id=mode pairs/,
    );
  });

  it('refuses a hold longer than a minute', () => {
    expect(problemsOf({ ...base, CHANNEL_AUTO_HOLD_SECONDS: '600' })[0]).toMatch(
      /^CHANNEL_AUTO_HOLD_SECONDS must be a number of seconds from 0 to 60/,
    );
  });
});

describe('REOPEN_WINDOW', () => {
  it('asks for 3 days after a resolution by default, and for as long as set', () => {
    expect(loadConfig(base).slack.reopenWindowMs).toBe(3 * 86_400_000);
    expect(loadConfig({ ...base, REOPEN_WINDOW: '72h' }).slack.reopenWindowMs).toBe(3 * 86_400_000);
    expect(loadConfig({ ...base, REOPEN_WINDOW: '90m' }).slack.reopenWindowMs).toBe(5_400_000);
    expect(loadConfig({ ...base, REOPEN_WINDOW: '0' }).slack.reopenWindowMs).toBe(0);
  });

  it('refuses a window without a unit or longer than 30 days, saying how to write one', () => {
    for (const value of ['3', 'three days', '31d']) {
      expect(problemsOf({ ...base, REOPEN_WINDOW: value })[0]).toMatch(
        /^REOPEN_WINDOW must be a duration up to 30 days, e.g. 3d, 72h or 90m/,
      );
    }
  });
});

describe('DESK_TRIAGE_CHANNELS', () => {
  it('reads desk=channel pairs and the catch-all', () => {
    const config = loadConfig({ ...base, DESK_TRIAGE_CHANNELS: 'it=C0123, HR=c0456,*=G0789' });
    expect([...config.slack.deskTriageChannels]).toEqual([
      ['it', 'C0123'],
      ['hr', 'C0456'],
      ['*', 'G0789'],
    ]);
  });

  it('has no triage channel when unset', () => {
    expect(loadConfig(base).slack.deskTriageChannels.size).toBe(0);
  });

  it('names the pair written channel first and shows it the right way round', () => {
    expect(problemsOf({ ...base, DESK_TRIAGE_CHANNELS: 'it=C0123,C0456=hr' })).toEqual([
      'DESK_TRIAGE_CHANNELS has "C0456=hr": the desk comes first, then the channel, e.g. hr=C0456',
    ]);
  });

  it('names a channel name where its id belongs', () => {
    expect(problemsOf({ ...base, DESK_TRIAGE_CHANNELS: 'it=#it-triage' })[0]).toMatch(
      /^DESK_TRIAGE_CHANNELS has "it=#it-triage": "#it-triage" is not a channel id; use the id/,
    );
  });

  it('refuses a direct message as a triage channel', () => {
    expect(problemsOf({ ...base, DESK_TRIAGE_CHANNELS: 'it=D0123' })[0]).toMatch(
      /^DESK_TRIAGE_CHANNELS has "it=D0123": D0123 is a direct message/,
    );
  });

  it('refuses a pair without a channel', () => {
    expect(problemsOf({ ...base, DESK_TRIAGE_CHANNELS: 'it' })[0]).toMatch(
      /^DESK_TRIAGE_CHANNELS has "it": write desk slug=channel id pairs, \* for the catch-all/,
    );
  });

  it('refuses one desk given two channels', () => {
    expect(problemsOf({ ...base, DESK_TRIAGE_CHANNELS: 'it=C01,it=C02' })).toEqual([
      'DESK_TRIAGE_CHANNELS names desk "it" twice (C01 and C02): one triage channel per desk',
    ]);
  });
});

describe('TRIAGE_REACTIONS', () => {
  it('defaults to 👀 assign, ✅ resolve and 🔼 raise', () => {
    expect([...loadConfig(base).slack.triageReactions]).toEqual([
      ['eyes', 'assign'],
      ['white_check_mark', 'resolve'],
      ['arrow_up_small', 'raise'],
    ]);
  });

  it('reads emoji name=action pairs, colons and case aside', () => {
    const config = loadConfig({ ...base, TRIAGE_REACTIONS: ':Raised_Hands:=ASSIGN, fire=raise' });
    expect([...config.slack.triageReactions]).toEqual([
      ['raised_hands', 'assign'],
      ['fire', 'raise'],
    ]);
  });

  it('turns the reactions off with off', () => {
    expect(loadConfig({ ...base, TRIAGE_REACTIONS: 'off' }).slack.triageReactions.size).toBe(0);
  });

  it('refuses an unknown action, naming the actions there are', () => {
    expect(problemsOf({ ...base, TRIAGE_REACTIONS: 'eyes=close' })).toEqual([
      'TRIAGE_REACTIONS has "eyes=close": "close" is not an action; use assign, resolve, raise, e.g. eyes=assign,white_check_mark=resolve,arrow_up_small=raise, or off',
    ]);
  });

  it('refuses an entry that is not a pair', () => {
    expect(problemsOf({ ...base, TRIAGE_REACTIONS: 'eyes' })[0]).toMatch(
      /^TRIAGE_REACTIONS has "eyes": write emoji name=action pairs, e\.g\. eyes=assign/,
    );
  });

  it('refuses a name that is not an emoji name', () => {
    expect(problemsOf({ ...base, TRIAGE_REACTIONS: '👀=assign' })[0]).toMatch(
      /^TRIAGE_REACTIONS has "👀=assign": "👀" is not an emoji name \(such as eyes\)/,
    );
  });

  it('refuses one emoji given two actions', () => {
    expect(problemsOf({ ...base, TRIAGE_REACTIONS: 'eyes=assign,eyes=resolve' })[0]).toMatch(
      /^TRIAGE_REACTIONS names :eyes: twice: one action per emoji/,
    );
  });

  it('refuses the ticket emoji, which files a message', () => {
    expect(problemsOf({ ...base, TRIAGE_REACTIONS: 'ticket=assign' })).toEqual([
      'TRIAGE_REACTIONS uses :ticket:, which is TICKET_EMOJI (it files a message as a ticket): choose another emoji for its action',
    ]);
  });
});

describe('service levels and the morning summary', () => {
  it('has no targets, warns at 0.8 and sends the summary at 09:00 UTC unless told', () => {
    const { slack } = loadConfig(base);
    expect(slack.slaTargets.size).toBe(0);
    expect(slack.slaWarnAt).toBe(0.8);
    expect(slack.deskOncallGroups.size).toBe(0);
    expect(slack.triageDigest).toEqual({ minuteOfDay: 9 * 60, timeZone: 'UTC' });
  });

  it('reads SLA_TARGETS, DESK_ONCALL_GROUPS and the summary time and zone', () => {
    const { slack } = loadConfig({
      ...base,
      SLA_TARGETS: 'it:urgent=15m/4h',
      DESK_ONCALL_GROUPS: 'IT=s0123abcd',
      TRIAGE_DIGEST_AT: '8:30',
      TRIAGE_DIGEST_TZ: 'Europe/Paris',
    });
    expect(slack.slaTargets.get('it:urgent')).toEqual({
      firstResponseMs: 15 * 60_000,
      resolutionMs: 4 * 3_600_000,
    });
    expect([...slack.deskOncallGroups]).toEqual([['it', 'S0123ABCD']]);
    expect(slack.triageDigest).toEqual({ minuteOfDay: 8 * 60 + 30, timeZone: 'Europe/Paris' });
  });

  it('turns the summary off with off', () => {
    expect(loadConfig({ ...base, TRIAGE_DIGEST_AT: 'off' }).slack.triageDigest).toBeUndefined();
  });

  it('names each bad entry: a target, a warning point, a group handle, a time and a zone', () => {
    expect(
      problemsOf({
        ...base,
        SLA_TARGETS: 'it:urgent=soon/4h',
        SLA_WARN_AT: '80',
        DESK_ONCALL_GROUPS: 'it=@it-oncall',
        TRIAGE_DIGEST_AT: '9am',
        TRIAGE_DIGEST_TZ: 'Paris',
      }),
    ).toEqual([
      'SLA_TARGETS has "it:urgent=soon/4h": "soon" is not a time such as 15m, 4h, 3d or - (none)',
      'SLA_WARN_AT must be a fraction above 0 and below 1, e.g. 0.8 (warn when 80% of a target’s time is gone) (got "80")',
      'DESK_ONCALL_GROUPS has "it=@it-oncall": write desk slug=user group id pairs (the id, S0123ABCD, not the @handle), e.g. it=S0123ABCD',
      'TRIAGE_DIGEST_AT must be a time of day as HH:MM, e.g. 09:00, or off (no morning summary) (got "9am")',
      'TRIAGE_DIGEST_TZ must be an IANA time zone such as Europe/Paris or America/New_York (got "Paris")',
    ]);
  });

  it('reads the AI pane’s prompts separated by |, off for none, unset to draw them from the catalog', () => {
    expect(loadConfig(base).slack.assistantPrompts).toBeUndefined();
    expect(
      loadConfig({ ...base, ASSISTANT_PROMPTS: "My laptop won't start | Request software" }).slack
        .assistantPrompts,
    ).toEqual(["My laptop won't start", 'Request software']);
    expect(loadConfig({ ...base, ASSISTANT_PROMPTS: 'off' }).slack.assistantPrompts).toEqual([]);
  });

  it('refuses more than four AI pane prompts, which Slack would not show', () => {
    expect(problemsOf({ ...base, ASSISTANT_PROMPTS: 'a|b|c|d|e' })[0]).toMatch(
      /^ASSISTANT_PROMPTS must be up to 4 prompts separated by \|/,
    );
  });
});

describe('installing by OAuth', () => {
  const { SLACK_BOT_TOKEN: _token, ...withoutToken } = base;
  const oauth = {
    ...withoutToken,
    SLACK_CLIENT_ID: '1234.5678',
    SLACK_CLIENT_SECRET: 'client-secret-value',
    SLACK_STATE_SECRET: 'state-secret-value-0123',
    SLACK_TOKEN_KEY: Buffer.alloc(32, 7).toString('base64'),
  };

  it('reads the client, the state secret and the token key, with no bot token', () => {
    const config = loadConfig(oauth);
    expect(config.slack.botToken).toBeUndefined();
    expect(config.slack.oauth).toEqual({
      clientId: '1234.5678',
      clientSecret: 'client-secret-value',
      stateSecret: 'state-secret-value-0123',
      tokenKey: oauth.SLACK_TOKEN_KEY,
    });
  });

  it('keeps single-token mode when no OAuth variable is set', () => {
    expect(loadConfig(base).slack.oauth).toBeUndefined();
  });

  it('asks for a bot token or the OAuth variables when neither is set', () => {
    expect(problemsOf(withoutToken)).toContainEqual(
      expect.stringMatching(
        /^SLACK_BOT_TOKEN is required: .* or set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET/,
      ),
    );
  });

  it('names each OAuth variable missing beside the ones set', () => {
    const { SLACK_CLIENT_SECRET: _s, SLACK_STATE_SECRET: _st, ...partial } = oauth;
    const problems = problemsOf(partial);
    expect(problems).toContainEqual(
      expect.stringMatching(/^SLACK_CLIENT_SECRET is required to install by OAuth/),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/^SLACK_STATE_SECRET is required to install by OAuth/),
    );
  });

  it('refuses a bot token beside the OAuth variables', () => {
    expect(problemsOf({ ...oauth, SLACK_BOT_TOKEN: 'xoxb-1-secret' })).toContainEqual(
      expect.stringMatching(/^SLACK_BOT_TOKEN must be unset when the app is installed by OAuth/),
    );
  });

  it('refuses Socket Mode beside installing by OAuth, which takes HTTP mode', () => {
    expect(problemsOf({ ...oauth, SLACK_APP_TOKEN: 'xapp-1-secret' })).toContainEqual(
      expect.stringMatching(/^SLACK_APP_TOKEN must be unset when the app is installed by OAuth/),
    );
  });

  it('refuses to start without the token key, and says how to make one', () => {
    const { SLACK_TOKEN_KEY: _k, ...keyless } = oauth;
    expect(problemsOf(keyless)).toEqual([
      expect.stringMatching(
        /^SLACK_TOKEN_KEY is required to install by OAuth: 32 random bytes in base64/,
      ),
    ]);
  });

  it('refuses a token key that is not 32 bytes, without printing it', () => {
    const problems = problemsOf({
      ...oauth,
      SLACK_TOKEN_KEY: Buffer.alloc(16, 1).toString('base64'),
    });
    expect(problems).toEqual([
      expect.stringMatching(/^SLACK_TOKEN_KEY must be 32 random bytes in base64/),
    ]);
    expect(problems[0]).not.toContain(Buffer.alloc(16, 1).toString('base64'));
  });
});
