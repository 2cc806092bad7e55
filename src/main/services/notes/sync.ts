/**
 * The notes folder, kept in sync: every finished transcript as a Markdown note (the export
 * pipeline's, front matter and all) named by its date and title. A rename, speaker names,
 * corrections and a new summary rewrite it; a note the user edited (its hash is not what Verbatim
 * last wrote) is never overwritten: Verbatim's update goes beside it, and the status says so.
 * Deleting a recording leaves its note. Writes are atomic (a temporary file, then a rename).
 * A pass runs at start, soon after the library changes, and every 30 s (summaries, and transcripts
 * the command line added beside the app); it yields between recordings.
 */
import { existsSync } from 'node:fs';
import { readFile, realpath, rename, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { KeptNote, NotesStatus } from '../../../shared/ipc/notes';
import type { LibraryItem } from '../../../shared/library';
import { writeFileAtomic } from '../library/atomic-write';
import { safeFileName } from '../library/exports';
import type { Library } from '../library/library';
import { readState, saveState, sha256, type NoteRecord, type NotesState } from './state';

export interface NotesDeps {
  library: Library;
  dataDir: string;
  /** Whether notes may be written under this real path (host mode: only inside --folder; UserFiles.allowsFolder). */
  allowsFolder(realDir: string): boolean;
  changed(status: NotesStatus): void;
  log(message: string): void;
  /** How long after a library change a pass starts (ms). */
  settleMs?: number;
  periodMs?: number;
}

const turn = () => new Promise<void>((r) => setImmediate(r));

export class NotesSync {
  private state: NotesState;
  private readonly file: string;
  private problem: string | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private periodic: NodeJS.Timeout | null = null;
  private off: (() => void) | null = null;
  private disposed = false;
  private kept: KeptNote[] = [];

  constructor(private readonly deps: NotesDeps) {
    this.file = join(deps.dataDir, 'notes.json');
    this.state = readState(this.file);
    this.kept = Object.values(this.state.notes)
      .filter((n) => n.copy)
      .map((n) => ({ note: n.file, copy: n.copy! }));
  }

  start(): void {
    this.off = this.deps.library.onChange((c) => {
      if (c.reason !== 'deleted') this.soon();
    });
    this.periodic = setInterval(() => this.soon(0), this.deps.periodMs ?? 30_000);
    this.periodic.unref();
    this.soon(0);
  }

  status(): NotesStatus {
    return { folder: this.state.folder, notes: Object.keys(this.state.notes).length, kept: this.kept.slice(-50), problem: this.problem };
  }

  async setFolder(folder: string | null): Promise<NotesStatus> {
    if (folder === null) {
      this.state = { folder: null, notes: {} };
      this.kept = [];
      this.problem = null;
    } else {
      if (!isAbsolute(folder)) throw new AppError('bad_request', 'Give the notes folder’s full path (for example /home/you/Notes/Meetings).');
      const real = await this.allowedFolder(folder);
      // Another folder: its notes are written afresh there; the old folder keeps what it has.
      if (real !== this.state.folder) this.state = { folder: real, notes: {} };
      this.kept = [];
      this.problem = null;
    }
    await saveState(this.file, this.state);
    this.deps.changed(this.status());
    if (this.state.folder) await this.pass();
    return this.status();
  }

  /** The folder's real path: an existing folder Verbatim may write into (by its real path: a link out of --folder is refused). */
  private async allowedFolder(folder: string): Promise<string> {
    const shown = folder.slice(0, 300);
    const real = await realpath(folder).catch(() => null);
    if (!real || !(await stat(real).catch(() => null))?.isDirectory())
      throw new AppError('bad_request', `“${shown}” is not a folder Verbatim can open. Create it first, or check the path.`);
    if (!this.deps.allowsFolder(real))
      throw new AppError(
        'forbidden',
        `Verbatim in the browser writes notes only inside the folders it was started with (--folder); “${shown}” is outside them${real !== folder ? ' (it leads there through a link)' : ''}. Choose a folder inside one of them.`,
      );
    return real;
  }

  /** A pass soon (after changes settle); one at a time, and one more if asked while running. */
  private soon(ms = this.deps.settleMs ?? 300): void {
    if (this.disposed || !this.state.folder) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.pass();
    }, ms);
    this.timer.unref?.();
  }

  /** Writes every note that is missing or out of date; resolves when done. */
  pass(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.run()
      .catch((e: unknown) => this.deps.log(`notes: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        this.running = null;
        if (this.again && !this.disposed) {
          this.again = false;
          void this.pass();
        }
      });
    return this.running;
  }

  private async run(): Promise<void> {
    const folder = this.state.folder;
    if (!folder) return;
    try {
      await this.allowedFolder(folder);
    } catch (e) {
      this.setProblem(
        e instanceof AppError
          ? e.message
          : `The notes folder ${folder} is gone or cannot be opened, so notes are not being written. Choose it again in Settings → Notes folder.`,
      );
      return;
    }
    this.setProblem(null);
    let dirty = false;
    for (let offset = 0; !this.disposed; offset += 200) {
      const page = this.deps.library.recordings.list({ status: ['completed'], sort: 'created', order: 'asc', limit: 200, offset }).items;
      for (const item of page) {
        if (this.disposed || this.state.folder !== folder) return;
        if (await this.one(folder, item)) dirty = true;
        await turn();
      }
      if (page.length < 200) break;
    }
    if (dirty) {
      await saveState(this.file, this.state);
      this.deps.changed(this.status());
    }
  }

  private made(item: LibraryItem): string {
    const transcriptId = this.deps.library.voices.currentTranscript(item.id);
    const insights = this.deps.library.insights.list(transcriptId).map((i) => `${i.kind}:${i.variant}:${i.createdAt}`);
    return `${item.updatedAt}|${insights.join(',')}`;
  }

  /** The note of one recording; whether anything was written. */
  private async one(folder: string, item: LibraryItem): Promise<boolean> {
    const prev = this.state.notes[item.id];
    const made = this.made(item);
    if (prev && prev.made === made) return false;
    const content = this.deps.library.exports.render(item.id, 'md').content;
    const hash = sha256(content);
    const name = this.nameFor(item, prev);
    const path = join(folder, name);
    let rec: NoteRecord = { file: name, hash, made, copy: null, copyHash: null };
    let ours = prev && prev.file === name ? prev.hash : null;
    // Renamed: the old note moves to the new name, unless the user edited it (then it stays where it is).
    if (prev && prev.file !== name && !existsSync(path)) {
      const old = join(folder, prev.file);
      const current = await readFile(old, 'utf8').catch(() => null);
      if (current !== null && sha256(current) === prev.hash) {
        await rename(old, path);
        ours = prev.hash;
      }
    }
    const onDisk = await readFile(path, 'utf8').catch(() => null);
    if (onDisk === null || sha256(onDisk) === ours || onDisk === content) {
      await writeFileAtomic(path, content);
    } else {
      // Edited by the user (or a file of theirs under this name): theirs stays; ours goes beside it.
      const copy = `${name.slice(0, -3)} (update from Verbatim).md`;
      const copyPath = join(folder, copy);
      const copyOnDisk = await readFile(copyPath, 'utf8').catch(() => null);
      if (copyOnDisk !== null && prev?.copy === copy && sha256(copyOnDisk) !== prev.copyHash && copyOnDisk !== content) {
        this.deps.log(`notes: ${copy} was edited too; left as it is`);
      } else await writeFileAtomic(copyPath, content);
      rec = { file: name, hash: prev?.file === name ? prev.hash : '', made, copy, copyHash: hash };
      if (!this.kept.some((k) => k.copy === copy)) this.kept.push({ note: name, copy });
    }
    this.state.notes[item.id] = rec;
    return true;
  }

  /** `YYYY-MM-DD Title.md`, with “ (2)” when another recording’s note has that name. */
  private nameFor(item: LibraryItem, prev: NoteRecord | undefined): string {
    const stem = `${item.createdAt.slice(0, 10)} ${safeFileName(item.title, 'Recording')}`;
    const taken = new Set(
      Object.entries(this.state.notes)
        .filter(([id]) => id !== item.id)
        .map(([, n]) => n.file.toLowerCase()),
    );
    for (let n = 1; ; n++) {
      const name = n === 1 ? `${stem}.md` : `${stem} (${n}).md`;
      if (prev?.file === name || !taken.has(name.toLowerCase())) return name;
    }
  }

  private setProblem(p: string | null): void {
    if (p === this.problem) return;
    this.problem = p;
    this.deps.changed(this.status());
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.off?.();
    if (this.timer) clearTimeout(this.timer);
    if (this.periodic) clearInterval(this.periodic);
    await this.running;
  }
}
