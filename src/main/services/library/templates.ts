/**
 * The user's summary templates, kept in the library beside the built-in ones
 * (which ship with the app and cannot be changed or deleted). Names are
 * unique, ignoring case: an imported template whose name is taken gets
 * " (2)", " (3)"… added.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { AppError } from '../../../shared/errors';
import { BUILT_IN_TEMPLATES, templateSectionSchema, type Template, type TemplateInput } from '../../../shared/templates';

interface Row {
  id: string;
  name: string;
  sections: string;
  updated_at: string;
}

function fromRow(r: Row): Template | null {
  try {
    const sections = templateSectionSchema.array().parse(JSON.parse(r.sections));
    return { id: r.id, name: r.name, sections, builtIn: false, updatedAt: r.updated_at };
  } catch {
    return null;
  }
}

export class TemplateStore {
  constructor(private readonly db: Database) {}

  /** Built-in templates first, then the user's by name. */
  list(): Template[] {
    const rows = this.db.prepare(`SELECT id, name, sections, updated_at FROM summary_templates ORDER BY name COLLATE NOCASE`).all() as Row[];
    return [...BUILT_IN_TEMPLATES, ...rows.flatMap((r) => fromRow(r) ?? [])];
  }

  get(id: string): Template {
    const t = BUILT_IN_TEMPLATES.find((b) => b.id === id) ?? this.userTemplate(id);
    if (!t) throw new AppError('not_found', 'This template is no longer in the library. Choose another one.');
    return t;
  }

  private userTemplate(id: string): Template | null {
    const row = this.db.prepare(`SELECT id, name, sections, updated_at FROM summary_templates WHERE id = ?`).get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** Creates (no id) or changes a template of the user's. */
  save(input: TemplateInput): Template {
    if (input.id?.startsWith('builtin:')) throw new AppError('conflict', 'Built-in templates cannot be changed. Make a copy and change that.');
    const taken = this.list().find((t) => t.name.toLowerCase() === input.name.toLowerCase() && t.id !== input.id);
    if (taken) throw new AppError('conflict', `A template named “${taken.name}” already exists. Choose another name.`);
    const now = new Date().toISOString();
    if (input.id) {
      const res = this.db
        .prepare(`UPDATE summary_templates SET name = ?, sections = ?, updated_at = ? WHERE id = ?`)
        .run(input.name, JSON.stringify(input.sections), now, input.id);
      if (res.changes === 0) throw new AppError('not_found', 'This template is no longer in the library.');
      return this.get(input.id);
    }
    const id = randomUUID();
    this.db
      .prepare(`INSERT INTO summary_templates (id, name, sections, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`)
      .run(id, input.name, JSON.stringify(input.sections), now, now);
    return this.get(id);
  }

  /** Adds an imported template, renaming it when its name is taken. */
  add(input: Omit<TemplateInput, 'id'>): Template {
    const names = new Set(this.list().map((t) => t.name.toLowerCase()));
    let name = input.name;
    for (let n = 2; names.has(name.toLowerCase()); n++) name = `${input.name.slice(0, 74)} (${n})`;
    return this.save({ name, sections: input.sections });
  }

  delete(id: string): void {
    if (id.startsWith('builtin:')) throw new AppError('conflict', 'Built-in templates cannot be deleted.');
    this.db.prepare(`DELETE FROM summary_templates WHERE id = ?`).run(id);
  }
}
