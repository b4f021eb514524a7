/**
 * A port another process holds: every command that listens (npm start, the sandbox, the
 * emulator, the Slack double) says so in one line naming the setting that moves it, instead of
 * Node's EADDRINUSE stack trace, which names neither.
 */

/** Whether an error is a listen refused because the address is already taken. */
export function isPortInUse(error: unknown): error is NodeJS.ErrnoException & { port?: number } {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
  );
}

/**
 * The line to print for a port in use: the port from the error (else the one asked for), then
 * `how`, the variable or flag that picks another, as the person would type it.
 */
export function portInUseLine(error: { port?: number }, asked: number, how: string): string {
  const port = typeof error.port === 'number' ? error.port : asked;
  return `port ${port} is in use: ${how}, or stop what holds it`;
}
