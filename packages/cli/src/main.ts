import { CommanderError } from 'commander';
import { ExitCode, GuardError } from './errors.js';
import { processIo, type Io } from './io.js';
import { createProgram } from './program.js';

/** Runs the CLI and returns the exit code; never throws, never calls process.exit. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  try {
    const program = createProgram(io);
    // `guard` alone is a request for help, as with git or npm: printed to stdout, exit 0
    if (argv.length <= 2) {
      program.outputHelp();
      return ExitCode.Ok;
    }
    await program.parseAsync(argv);
    return ExitCode.Ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version arrive here too, with exitCode 0; commander already printed the text
      return error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    }
    if (error instanceof GuardError) {
      // an empty message: the command already said everything (doctor --json), only the exit code is left
      if (error.message !== '') io.err(`guard: ${error.message}\n${error.hint ? `${error.hint}\n` : ''}`);
      return error.exitCode;
    }
    io.err(`guard: unexpected error\n${error instanceof Error ? error.stack : String(error)}\n`);
    return ExitCode.Failure;
  }
}
