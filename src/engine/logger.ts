/** The engine's log lines on stderr (info is silenced by `quiet`; warnings and errors never are). */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export function stderrLogger(quiet = false): Logger {
  return {
    info: (m) => {
      if (!quiet) process.stderr.write(`[engine] ${m}\n`);
    },
    warn: (m) => process.stderr.write(`[engine] warning: ${m}\n`),
    error: (m) => process.stderr.write(`[engine] error: ${m}\n`),
  };
}
