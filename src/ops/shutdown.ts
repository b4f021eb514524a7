/**
 * Graceful shutdown on SIGTERM and SIGINT: the first signal runs the stop steps (readiness
 * false, stop taking Slack requests, finish in-flight work, close connections) and exits 0,
 * or exits 1 when they do not finish within the deadline; a second signal exits at once.
 * Unfinished outbox entries are never drained to a deadline: they stay in Redis for the next
 * process, so leaving early loses nothing.
 */
import type { Logger } from 'pino';

/** The slice of `process` the handler uses; tests pass an EventEmitter with an `exit` spy. */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  exit(code: number): void;
}

/** One named stop step; steps run in order. */
export interface ShutdownStep {
  name: string;
  run: () => Promise<unknown>;
}

/** Options of `handleShutdownSignals`. */
export interface ShutdownOptions {
  steps: readonly ShutdownStep[];
  logger: Logger;
  /** The whole shutdown's deadline; 10 s by default. */
  timeoutMs?: number;
  signals?: readonly NodeJS.Signals[];
  process?: SignalSource;
}

const SIGNAL_EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

/** Installs the handlers; `dispose` removes them. `shutdown` runs the same sequence without a signal. */
export function handleShutdownSignals(options: ShutdownOptions): {
  shutdown(reason: string): Promise<void>;
  dispose(): void;
} {
  const proc: SignalSource = options.process ?? process;
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const timeoutMs = options.timeoutMs ?? 10_000;
  const { logger } = options;
  let running: Promise<void> | undefined;

  const shutdown = (reason: string): Promise<void> => {
    running ??= (async () => {
      const started = Date.now();
      logger.info({ reason, deadline_ms: timeoutMs }, 'shutting down');
      const force = setTimeout(() => {
        logger.error(
          { reason, elapsed_ms: Date.now() - started },
          'shutdown did not finish in time: exiting; unfinished outbox entries stay stored for the next process',
        );
        proc.exit(1);
      }, timeoutMs);
      let failed = false;
      for (const step of options.steps) {
        try {
          await step.run();
        } catch (error) {
          failed = true;
          logger.warn({ err: error, step: step.name }, 'shutdown step failed; going on');
        }
      }
      clearTimeout(force);
      logger.info({ reason, elapsed_ms: Date.now() - started }, 'shut down');
      proc.exit(failed ? 1 : 0);
    })();
    return running;
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (running) {
      logger.warn({ signal }, 'second signal: exiting at once');
      proc.exit(SIGNAL_EXIT_CODES[signal] ?? 1);
      return;
    }
    void shutdown(signal);
  };
  for (const signal of signals) proc.on(signal, onSignal);
  return {
    shutdown,
    dispose() {
      for (const signal of signals) proc.off(signal, onSignal);
    },
  };
}
