/**
 * Summary templates: the built-in ones and the user's (kept in the library),
 * whether the templates view is showing, and saving, deleting, exporting and
 * importing one as a Markdown file.
 */
import { create, type StateCreator } from 'zustand';
import type { VerbatimApi } from '../../../shared/ipc';
import type { Template, TemplateInput } from '../../../shared/templates';
import { api as bridgeApi, errorMessage, saveText } from '../bridge';
import { toast } from './toasts';

export interface TemplatesState {
  templates: Template[];
  loaded: boolean;
  error: string | null;
  /** The templates view is showing (in the Chat screen). */
  showing: boolean;
  show(showing: boolean): void;
  load(): Promise<void>;
  /** Saves and answers the saved template, or null with `error` set. */
  save(input: TemplateInput): Promise<Template | null>;
  remove(id: string): Promise<void>;
  exportMarkdown(id: string): Promise<void>;
  /** Adds a template from a Markdown file's text. */
  importMarkdown(content: string): Promise<Template | null>;
}

export const templatesState =
  (api: VerbatimApi): StateCreator<TemplatesState> =>
  (set, get) => ({
    templates: [],
    loaded: false,
    error: null,
    showing: false,
    show(showing) {
      set({ showing, error: null });
      if (showing) void get().load();
    },
    async load() {
      try {
        set({ templates: (await api.invoke('templates.list')).templates, loaded: true });
      } catch (err) {
        set({ error: errorMessage(err), loaded: true });
      }
    },
    async save(input) {
      try {
        const t = await api.invoke('templates.save', input);
        set({ error: null });
        await get().load();
        return t;
      } catch (err) {
        set({ error: errorMessage(err) });
        return null;
      }
    },
    async remove(id) {
      try {
        await api.invoke('templates.delete', { id });
        await get().load();
      } catch (err) {
        set({ error: errorMessage(err) });
      }
    },
    async exportMarkdown(id) {
      try {
        const out = await api.invoke('templates.export', { id });
        saveText(out.filename, out.mime, out.content);
        toast(`Saved ${out.filename} to your downloads.`, 'ok');
      } catch (err) {
        set({ error: errorMessage(err) });
      }
    },
    async importMarkdown(content) {
      try {
        const t = await api.invoke('templates.import', { content });
        set({ error: null });
        await get().load();
        toast(`Added the template “${t.name}”.`, 'ok');
        return t;
      } catch (err) {
        set({ error: errorMessage(err) });
        return null;
      }
    },
  });

export const useTemplates = create<TemplatesState>()(templatesState(bridgeApi));
