/**
 * Summary templates: the built-in ones and the user's own, each a name and
 * sections with instructions. The user writes, changes, copies and deletes
 * them, and exports or imports one as a Markdown file. Summaries in Chat and
 * in "Understand" can be written to any of them.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { Template, TemplateInput, TemplateSection } from '../../../../shared/templates';
import { Button } from '../../components/Button';
import { useTemplates } from '../../stores/templates';
import './templates.css';

function Editor({ initial, onDone }: { initial: TemplateInput; onDone(): void }) {
  const save = useTemplates((s) => s.save);
  const [name, setName] = useState(initial.name);
  const [sections, setSections] = useState<TemplateSection[]>(initial.sections);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const setSection = (i: number, patch: Partial<TemplateSection>) => setSections((list) => list.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const saved = await save({ ...(initial.id ? { id: initial.id } : {}), name, sections });
    setBusy(false);
    if (saved) onDone();
  };
  return (
    <form className="card templates__editor" aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)}>
      <h2 id={`${id}-title`}>{initial.id ? `Change “${initial.name}”` : 'New template'}</h2>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} type="text" value={name} maxLength={80} required onChange={(e) => setName(e.target.value)} />
      </div>
      <ol className="templates__sections">
        {sections.map((s, i) => (
          <li key={i} className="templates__section">
            <div className="field">
              <label htmlFor={`${id}-s${i}`}>Section {i + 1}</label>
              <input id={`${id}-s${i}`} type="text" value={s.title} maxLength={80} required onChange={(e) => setSection(i, { title: e.target.value })} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-i${i}`}>What goes in it</label>
              <textarea id={`${id}-i${i}`} rows={2} value={s.instructions} maxLength={1000} onChange={(e) => setSection(i, { instructions: e.target.value })} />
            </div>
            <Button
              size="sm"
              variant="ghost"
              disabled={sections.length === 1}
              aria-label={`Remove section ${i + 1}${s.title ? ` (${s.title})` : ''}`}
              onClick={() => setSections((list) => list.filter((_, j) => j !== i))}
            >
              Remove
            </Button>
          </li>
        ))}
      </ol>
      <div className="templates__row">
        <Button size="sm" icon="plus" disabled={sections.length >= 12} onClick={() => setSections((list) => [...list, { title: '', instructions: '' }])}>
          Add section
        </Button>
        <span className="templates__spacer" />
        <Button size="sm" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" type="submit" busy={busy}>
          Save template
        </Button>
      </div>
    </form>
  );
}

function Row({ t, onEdit }: { t: Template; onEdit(input: TemplateInput): void }) {
  const remove = useTemplates((s) => s.remove);
  const exportMarkdown = useTemplates((s) => s.exportMarkdown);
  return (
    <li className="templates__item" data-testid="template">
      <div className="templates__item-text">
        <h3>
          {t.name} {t.builtIn && <span className="badge">Built in</span>}
        </h3>
        <p className="muted">{t.sections.map((s) => s.title).join(' · ')}</p>
      </div>
      <div className="templates__row">
        {t.builtIn ? (
          <Button size="sm" aria-label={`Copy “${t.name}” to change it`} onClick={() => onEdit({ name: `${t.name} (my copy)`, sections: t.sections })}>
            Copy
          </Button>
        ) : (
          <Button size="sm" aria-label={`Change “${t.name}”`} onClick={() => onEdit({ id: t.id, name: t.name, sections: t.sections })}>
            Change
          </Button>
        )}
        <Button size="sm" aria-label={`Export “${t.name}” as Markdown`} onClick={() => void exportMarkdown(t.id)}>
          Export
        </Button>
        {!t.builtIn && (
          <Button size="sm" variant="danger" aria-label={`Delete “${t.name}”`} onClick={() => void remove(t.id)}>
            Delete
          </Button>
        )}
      </div>
    </li>
  );
}

export function TemplatesPanel() {
  const templates = useTemplates((s) => s.templates);
  const error = useTemplates((s) => s.error);
  const load = useTemplates((s) => s.load);
  const show = useTemplates((s) => s.show);
  const importMarkdown = useTemplates((s) => s.importMarkdown);
  const [editing, setEditing] = useState<TemplateInput | null>(null);
  const file = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void load();
  }, [load]);

  const picked = async (e: React.ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    e.target.value = '';
    if (f) await importMarkdown(await f.text());
  };

  return (
    <section className="chat templates" aria-labelledby="templates-title">
      <header className="chat__header">
        <div className="chat__heading">
          <h1 id="templates-title">Summary templates</h1>
          <p className="chat__about muted">
            The sections a summary is written in, with what goes in each. Summaries in Chat and Understand can use any of them.
          </p>
        </div>
        <div className="chat__tools">
          <Button size="sm" icon="plus" onClick={() => setEditing({ name: '', sections: [{ title: '', instructions: '' }] })}>
            New template
          </Button>
          <Button size="sm" onClick={() => file.current?.click()}>
            Import…
          </Button>
          <input ref={file} type="file" accept=".md,.markdown,text/markdown,text/plain" hidden onChange={(e) => void picked(e)} data-testid="template-file" />
          <Button size="sm" variant="ghost" onClick={() => show(false)}>
            Back to chat
          </Button>
        </div>
      </header>
      <div className="chat__scroll templates__body">
        {error && (
          <p className="banner banner--error" role="alert">
            {error}
          </p>
        )}
        {editing && <Editor key={editing.id ?? 'new'} initial={editing} onDone={() => setEditing(null)} />}
        <ul className="templates__list" aria-label="Templates">
          {templates.map((t) => (
            <Row key={t.id} t={t} onEdit={setEditing} />
          ))}
        </ul>
      </div>
    </section>
  );
}
