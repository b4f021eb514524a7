/**
 * The base of every error class in the project: a message and a stable, machine-readable
 * string code (as bolt-js's errors have), with the class's own name. Each component has one
 * error module whose base extends this one, and one class per case below it.
 */
export class CodedError<Code extends string = string> extends Error {
  /** Stable machine-readable code of the case. */
  readonly code: Code;

  constructor(code: Code, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** The string `code` an error carries (ours, Node's, the Web API client's), if any. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
