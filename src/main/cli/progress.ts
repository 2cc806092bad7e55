/**
 * Progress on stderr: in a terminal, one line per file redrawn in place (a bar while the file is
 * sent, then the stage and the time it has taken); piped, a plain line each time a file's stage changes.
 */
import { basename } from 'node:path';

export type Stage = 'waiting' | 'queued' | 'downloading' | 'uploading' | 'submitted' | 'processing' | 'writing' | 'done' | 'failed';

interface Row {
  name: string;
  stage: Stage;
  bytes: number;
  total: number | null;
  since: number;
  note: string;
}

const WORDS: Record<Stage, string> = {
  waiting: 'starting',
  queued: 'queued',
  downloading: 'downloading',
  uploading: 'sending',
  submitted: 'sent',
  processing: 'transcribing',
  writing: 'writing files',
  done: 'done',
  failed: 'failed',
};

export class Progress {
  private readonly rows = new Map<string, Row>();
  private drawn = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly started = Date.now();

  constructor(
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly tty = Boolean(process.stderr.isTTY) && process.env.TERM !== 'dumb',
  ) {
    if (this.tty) {
      this.timer = setInterval(() => this.draw(), 250);
      this.timer.unref();
    }
  }

  add(key: string, path: string): void {
    this.rows.set(key, { name: basename(path), stage: 'waiting', bytes: 0, total: null, since: Date.now(), note: '' });
  }

  /** Shows every file still waiting (before the services are up), so the run is seen to have started. */
  announce(): void {
    if (this.tty) return this.draw();
    for (const r of this.rows.values()) if (r.stage === 'waiting') this.out.write(`${r.name}: ${WORDS.waiting}\n`);
  }

  set(key: string, stage: Stage, note = ''): void {
    const r = this.rows.get(key);
    if (!r || (r.stage === stage && r.note === note)) return;
    r.stage = stage;
    r.note = note;
    r.since = Date.now();
    if (this.tty) this.draw();
    else this.out.write(`${r.name}: ${WORDS[stage]}${note.startsWith(':') ? note : note ? ` ${note}` : ''}\n`);
  }

  bytes(key: string, bytes: number, total: number | null): void {
    const r = this.rows.get(key);
    if (!r) return;
    r.bytes = bytes;
    r.total = total;
  }

  /** A line of its own, above the bars. */
  line(text: string): void {
    if (!this.tty) {
      this.out.write(`${text}\n`);
      return;
    }
    this.clear();
    this.out.write(`${text}\n`);
    this.draw();
  }

  private clear(): void {
    if (this.drawn) this.out.write(`\x1b[${this.drawn}A\x1b[J`);
    this.drawn = 0;
  }

  private draw(): void {
    this.clear();
    const cols = this.out.columns || 80;
    const width = Math.max(10, Math.min(30, cols - 56));
    const lines = [...this.rows.values()].map((r) => {
      const frac =
        (r.stage === 'uploading' || r.stage === 'downloading') && r.total
          ? Math.min(1, r.bytes / r.total)
          : ['submitted', 'processing', 'writing', 'done'].includes(r.stage)
            ? 1
            : 0;
      const filled = Math.round(frac * width);
      const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
      const secs = Math.round((Date.now() - r.since) / 1000);
      const name = r.name.length > 24 ? `${r.name.slice(0, 23)}…` : r.name.padEnd(24);
      // In a terminal a finished file says only that (its id is on stdout); a failure keeps its reason.
      const tail = r.stage === 'failed' ? r.note : r.stage === 'done' ? '' : ` ${secs}s`;
      const line = `${name} ${bar} ${WORDS[r.stage]}${tail}`;
      // A failure's reason may wrap (it is the last draw of that line); the rest stays one line each, so the redraw lands.
      return r.stage === 'failed' ? line : [...line].slice(0, cols - 1).join('');
    });
    this.out.write(lines.map((l) => `${l}\n`).join(''));
    // Rows on screen: a long failure wraps onto more than one.
    this.drawn = lines.reduce((n, l) => n + Math.max(1, Math.ceil([...l].length / cols)), 0);
  }

  /** Draws the last state and stops redrawing. */
  end(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.tty) this.draw();
    this.drawn = 0;
  }

  elapsedMs(): number {
    return Date.now() - this.started;
  }
}
