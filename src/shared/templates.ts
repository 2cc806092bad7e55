/**
 * Summary templates: a name and its sections, each with instructions for
 * what goes in it. A few ship built in; the user's own are kept in the
 * library. A template travels as a Markdown file: `# Name`, then one
 * `## Section` heading per section with its instructions below it.
 */
import { z } from 'zod';
import { lazySchemas } from './lazy-schemas';

// Made on first use (lazy-schemas.ts): each schema below is a z.lazy of the one build() makes, by the same name.
const schemas = lazySchemas(build);

export const templateSectionSchema = z.lazy(() => schemas().templateSectionSchema);
export type TemplateSection = z.infer<typeof templateSectionSchema>;

export const templateInputSchema = z.lazy(() => schemas().templateInputSchema);
export type TemplateInput = z.infer<typeof templateInputSchema>;

export const templateSchema = z.lazy(() => schemas().templateSchema);
export type Template = z.infer<typeof templateSchema>;

const SHIPPED = '2026-01-01T00:00:00.000Z';

export const BUILT_IN_TEMPLATES: Template[] = [
  {
    id: 'builtin:one-on-one',
    name: '1:1',
    builtIn: true,
    updatedAt: SHIPPED,
    sections: [
      { title: 'Updates', instructions: 'What each person reported since the last meeting: progress, wins, news.' },
      { title: 'Concerns and blockers', instructions: 'Problems, worries or obstacles raised, and who raised them.' },
      { title: 'Feedback', instructions: 'Feedback given in either direction, as said.' },
      { title: 'Next steps', instructions: 'What each person agreed to do, with the owner and the date if one was said.' },
    ],
  },
  {
    id: 'builtin:lecture-notes',
    name: 'Lecture notes',
    builtIn: true,
    updatedAt: SHIPPED,
    sections: [
      { title: 'Topics', instructions: 'The main topics of the lecture, in the order they were taught.' },
      { title: 'Key ideas', instructions: 'Definitions, claims and explanations worth remembering, each in one sentence.' },
      { title: 'Examples', instructions: 'The examples, cases or demonstrations given.' },
      { title: 'To review', instructions: 'Readings, assignments, deadlines and anything the speaker said would be examined.' },
    ],
  },
  {
    id: 'builtin:stand-up',
    name: 'Stand-up',
    builtIn: true,
    updatedAt: SHIPPED,
    sections: [
      { title: 'Done', instructions: 'What each person finished since the last stand-up, by name.' },
      { title: 'Next', instructions: 'What each person plans to do next, by name.' },
      { title: 'Blockers', instructions: 'Anything blocking someone, and who can help.' },
    ],
  },
  {
    id: 'builtin:customer-interview',
    name: 'Customer interview',
    builtIn: true,
    updatedAt: SHIPPED,
    sections: [
      { title: 'Customer', instructions: 'Who the customer is: role, company, situation, as they described it.' },
      { title: 'Needs and pains', instructions: 'The problems and needs they described, in their own words where possible.' },
      { title: 'Current workarounds', instructions: 'How they deal with those problems today, and what it costs them.' },
      { title: 'Reactions', instructions: 'What they said about our product or ideas: praise, doubts, objections.' },
      { title: 'Follow-ups', instructions: 'What was promised to the customer or by them, with dates if said.' },
    ],
  },
];

/** The template as a Markdown file. */
export function templateMarkdown(t: Pick<Template, 'name' | 'sections'>): string {
  return `# ${t.name}\n\n${t.sections.map((s) => `## ${s.title}\n\n${s.instructions}\n`).join('\n')}`;
}

/**
 * A template read from Markdown: the first `# ` heading is its name, each
 * `## ` heading a section whose instructions are the text below it.
 * Throws an Error whose message says what is missing.
 */
export function parseTemplateMarkdown(text: string): Pick<TemplateInput, 'name' | 'sections'> {
  let name = '';
  const sections: TemplateSection[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trimEnd();
    const h = /^(#{1,2})\s+(.+?)\s*#*\s*$/.exec(line);
    if (h && h[1] === '#' && !name && sections.length === 0) name = (h[2] ?? '').trim();
    else if (h && h[1] === '##') sections.push({ title: (h[2] ?? '').trim(), instructions: '' });
    else if (sections.length) {
      const s = sections[sections.length - 1] as TemplateSection;
      s.instructions = s.instructions ? `${s.instructions}\n${line}` : line.trim() ? line : '';
    }
  }
  const parsed = templateInputSchema.safeParse({ name, sections: sections.map((s) => ({ ...s, instructions: s.instructions.trim() })) });
  if (!parsed.success) {
    if (!name) throw new Error('This file has no template name: its first heading should be “# Name”.');
    if (!sections.length) throw new Error('This file has no sections: give each section a “## Title” heading with its instructions below.');
    throw new Error(parsed.error.issues[0]?.message ?? 'This file is not a summary template.');
  }
  return { name: parsed.data.name, sections: parsed.data.sections };
}

/** What the summariser is asked for a template: each section with its instructions, every point citing its lines. */
export function templateTask(t: Pick<Template, 'name' | 'sections'>): string {
  return (
    `Write a “${t.name}” summary with exactly these sections, in this order:\n` +
    t.sections.map((s, i) => `${i + 1}. ${s.title}${s.instructions ? `: ${s.instructions}` : ''}`).join('\n') +
    '\nUnder each section, short bullet points, each citing the lines it comes from. Leave a section empty when the recording says nothing for it.'
  );
}

function build() {
  const templateSectionSchema = z.object({
    title: z.string().trim().min(1, 'Give every section a title.').max(80),
    instructions: z.string().trim().max(1000),
  });

  const templateInputSchema = z
    .object({
      /** Absent: a new template. */
      id: z.string().min(1).max(80).optional(),
      name: z.string().trim().min(1, 'Give the template a name.').max(80),
      sections: z.array(templateSectionSchema).min(1, 'A template needs at least one section.').max(12, 'A template holds at most 12 sections.'),
    })
    .strict();

  const templateSchema = z.object({
    id: z.string(),
    name: z.string(),
    sections: z.array(templateSectionSchema),
    /** Shipped with the app: it can be used, copied and exported, not changed or deleted. */
    builtIn: z.boolean(),
    updatedAt: z.string(),
  });
  return { templateSectionSchema, templateInputSchema, templateSchema };
}
