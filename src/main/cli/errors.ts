/** An error the command line prints as it is (one line saying what happened and what to do), with exit status 1, or 2 for a wrong use. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** A wrong use of the command line (unknown option, missing argument): exit status 2, and a pointer to --help. */
export function usageError(message: string, command: string): CliError {
  return new CliError(`${message} (see: verbatim ${command} --help)`, 2);
}

/** A command's parsed options (node:util parseArgs). */
export type Values = Record<string, string | boolean | string[] | undefined>;
