/** Exit codes are part of the CLI's contract; keep them in one place. */
export const ExitCode = { Ok: 0, Failure: 1, Usage: 2 } as const;

/**
 * An expected failure the user can fix. `message` says what went wrong, `hint` says what to run
 * instead; neither ends up as a stack trace.
 */
export class GuardError extends Error {
  override readonly name = 'GuardError';
  constructor(
    message: string,
    readonly hint?: string,
    readonly exitCode: number = ExitCode.Failure,
  ) {
    super(message);
  }
}
