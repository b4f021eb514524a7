/** Bolt's logger interface on top of pino, so Bolt's own lines share our redaction and format. */
import { type Logger as BoltLogger, LogLevel } from '@slack/logger';
import type { Logger } from 'pino';

const toPino: Record<LogLevel, string> = {
  [LogLevel.DEBUG]: 'debug',
  [LogLevel.INFO]: 'info',
  [LogLevel.WARN]: 'warn',
  [LogLevel.ERROR]: 'error',
};

/** Wraps a pino logger as a @slack/logger Logger. */
export function boltLogger(base: Logger): BoltLogger {
  let logger = base.child({ component: 'bolt' });
  const write =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...msgs: unknown[]) => {
      const err = msgs.find((m): m is Error => m instanceof Error);
      const text = msgs
        .filter((m) => m !== err)
        .map((m) => (typeof m === 'string' ? m : JSON.stringify(m)))
        .join(' ');
      if (err) logger[level]({ err }, text || err.message);
      else logger[level](text);
    };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    setLevel: (level: LogLevel) => {
      logger.level = toPino[level] ?? 'info';
    },
    getLevel: () =>
      (Object.entries(toPino).find(([, v]) => v === logger.level)?.[0] as LogLevel) ??
      LogLevel.INFO,
    setName: (name: string) => {
      logger = base.child({ component: name });
    },
  };
}

/**
 * Bolt's logger for the OAuth installer (and the Web API client it builds with it), without
 * debug lines: the client's print each request's body, and the code exchange's
 * (`oauth.v2.access`) carries the client secret. Its warnings and errors are kept.
 */
export function installerLogger(base: Logger): BoltLogger {
  const logger = boltLogger(base);
  return { ...logger, debug: () => undefined };
}
