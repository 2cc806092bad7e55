/**
 * The chat's one-click actions over whole recordings: a summary, the action
 * items, a follow-up email. The renderer asks their question; main knows
 * them by it and gives the model the whole transcript (or, when it does not
 * fit the model's context, notes on each part first: map-reduce).
 */
export interface ChatAction {
  id: 'summary' | 'action-items' | 'follow-up';
  /** The button's text. */
  label: string;
  /** The question asked in the chat (what the user sees as theirs). */
  question: string;
  /** What the model is asked to do with the transcript. */
  task: string;
}

export const CHAT_ACTIONS: readonly ChatAction[] = [
  {
    id: 'summary',
    label: 'Summary',
    question: 'Summarise this recording.',
    task: 'Write a short summary: the purpose, the main points in the order they came up, and what was decided.',
  },
  {
    id: 'action-items',
    label: 'Action items',
    question: 'List the action items.',
    task: 'List the action items as a Markdown list: who does what, and by when when it was said. If there are none, say so.',
  },
  {
    id: 'follow-up',
    label: 'Follow-up email',
    question: 'Draft a follow-up email.',
    task: 'Draft a short follow-up email to the participants: a thank-you line, what was decided, the action items with their owners, and the next meeting if one was set.',
  },
];

/** The action a question is (exactly one of the actions' questions), or null. */
export function chatActionFor(question: string): ChatAction | null {
  const q = question.trim();
  return CHAT_ACTIONS.find((a) => a.question === q) ?? null;
}

/** The question that asks for a summary written to a template (the chat's template action). */
export function templateQuestion(templateName: string): string {
  return `Summarise this recording with the “${templateName}” template.`;
}

/** The template name a question asks for (see templateQuestion), or null. */
export function templateNameOf(question: string): string | null {
  return /^Summarise this recording with the “(.{1,80})” template\.$/.exec(question.trim())?.[1] ?? null;
}
