/** Handlers of summary templates: validate (the router), call the library's template store. */
import { AppError } from '../../shared/errors';
import { parseTemplateMarkdown, templateMarkdown } from '../../shared/templates';
import type { Library } from '../services/library/library';
import type { Router } from './router';

export function registerTemplateHandlers(router: Router, library: Library): void {
  router.handle('templates.list', () => ({ templates: library.templates.list() }));
  router.handle('templates.save', (input) => library.templates.save(input));
  router.handle('templates.delete', ({ id }) => {
    library.templates.delete(id);
    return { ok: true as const };
  });
  router.handle('templates.export', ({ id }) => {
    const t = library.templates.get(id);
    const safe =
      t.name
        .replace(/[^\p{L}\p{N} _-]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 80) || 'Template';
    return { filename: `${safe}.md`, mime: 'text/markdown', content: templateMarkdown(t) };
  });
  router.handle('templates.import', ({ content }) => {
    let parsed;
    try {
      parsed = parseTemplateMarkdown(content);
    } catch (e) {
      throw new AppError(
        'bad_request',
        `${e instanceof Error ? e.message : String(e)} Check the file, or make the template in Verbatim and export it to see the form.`,
      );
    }
    return library.templates.add(parsed);
  });
}
