/**
 * Command-line values of the engine checked where they are read (index.ts), each with a message that says
 * what was given and what is allowed.
 */

/** The longest drain the engine waits for running jobs on SIGTERM: a day (setTimeout's own limit is ~24.8 days). */
export const MAX_DRAIN_SECONDS = 86_400;

/** `--drain-seconds`: a plain decimal number of seconds from 0 to a day; "", 1e309 and 3000000 are refused. */
export function drainSecondsOf(raw: string): number {
  const n = /^\d{1,6}(\.\d{1,3})?$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!(n >= 0 && n <= MAX_DRAIN_SECONDS))
    throw new Error(
      `--drain-seconds ${JSON.stringify(raw.slice(0, 40))} is not a number of seconds from 0 to ${MAX_DRAIN_SECONDS} (a day); give one such as 30.`,
    );
  return n;
}
