/**
 * The process logger: pino JSON (pretty only when asked), with every place a token or key can
 * sit redacted. Redaction by path covers structured fields; the error serializer also scrubs
 * messages and stacks, because libraries put request details (and so tokens) into error text.
 */
import { pino, stdSerializers } from 'pino';

const SECRET_FIELDS = [
  'token',
  'botToken',
  'appToken',
  'signingSecret',
  'clientSecret',
  'stateSecret',
  'tokenKey',
  'refreshToken',
  'apiKey',
  'api_key',
  'password',
  'authorization',
  'Authorization',
  'cookie',
  'x-slack-signature',
];

/** The pino redact paths: each secret field at the top level and up to three levels down. */
export const REDACT_PATHS: string[] = SECRET_FIELDS.flatMap((field) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(field) ? field : `["${field}"]`;
  const join = (prefix: string) => (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`);
  return [key, join('*'), join('*.*'), join('*.*.*')];
});

// Slack tokens and the platform's access-key header, wherever they appear in free text.
const TOKEN_PATTERN = /\b(xox[abposr]-[A-Za-z0-9-]+|xapp-[A-Za-z0-9-]+)|(AccessKey\s+)\S+/g;

/** Replaces Slack tokens, `AccessKey <key>` and the given secret values in a string. */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(
    TOKEN_PATTERN,
    (_m, token: string | undefined, scheme: string | undefined) =>
      token ? '[Redacted]' : `${scheme ?? ''}[Redacted]`,
  );
  for (const secret of secrets) {
    if (secret.length >= 6) out = out.split(secret).join('[Redacted]');
  }
  return out;
}

/** Options of createLogger. */
export interface LoggerOptions {
  level?: string;
  pretty?: boolean;
  /** Secret values (tokens, keys) to scrub from error text, as well as the fields redacted by path. */
  secrets?: readonly string[];
  /** Where lines go; tests pass a stream to read them back. */
  destination?: pino.DestinationStream;
}

/** Builds the process logger. */
export function createLogger(options: LoggerOptions = {}): pino.Logger {
  const secrets = (options.secrets ?? []).filter((s) => s.length > 0);
  const errSerializer = (err: Error) => {
    const serialized = stdSerializers.err(err);
    serialized.message = scrubSecrets(serialized.message, secrets);
    if (serialized.stack) serialized.stack = scrubSecrets(serialized.stack, secrets);
    return serialized;
  };
  const pinoOptions: pino.LoggerOptions = {
    level: options.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
    serializers: { err: errSerializer, error: errSerializer },
    hooks: {
      // A message string is free text: scrub it the same way as error text.
      logMethod(args, method) {
        const scrubbed = args.map((a) => (typeof a === 'string' ? scrubSecrets(a, secrets) : a));
        return method.apply(this, scrubbed as Parameters<typeof method>);
      },
    },
  };
  if (options.pretty && !options.destination) {
    return pino({ ...pinoOptions, transport: { target: 'pino-pretty' } });
  }
  return options.destination ? pino(pinoOptions, options.destination) : pino(pinoOptions);
}
