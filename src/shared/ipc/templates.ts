/** Summary templates: the built-in ones and the user's, kept in the library; each can be exported and imported as a Markdown file. */
import { z } from 'zod';
import { templateInputSchema, templateSchema } from '../templates';
import { idInput, okOutput, type Contracts } from './common';

export const templateChannels = {
  /** Built-in templates first, then the user's by name. */
  'templates.list': { input: z.lazy(() => z.undefined()), output: z.lazy(() => z.object({ templates: z.array(templateSchema) })) },
  /** Create (no id) or change one of the user's templates; `conflict` for a taken name or a built-in one. */
  'templates.save': { input: templateInputSchema, output: templateSchema },
  /** Delete one of the user's templates. */
  'templates.delete': { input: idInput, output: okOutput },
  /** The template as a Markdown file; the renderer saves it. */
  'templates.export': { input: idInput, output: z.lazy(() => z.object({ filename: z.string(), mime: z.string(), content: z.string() })) },
  /** Add a template from a Markdown file's text (`# Name`, then `## Section` headings with instructions); a taken name gets " (2)". */
  'templates.import': { input: z.lazy(() => z.object({ content: z.string().min(1).max(100_000) }).strict()), output: templateSchema },
} as const satisfies Contracts;
