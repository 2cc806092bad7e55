/**
 * Speech-understanding actions on one transcript: summary, action items and
 * key decisions through the one summariser (summarise.ts: the whole
 * transcript, map-reduced when it does not fit, every point citing its
 * lines), translation part by part so every paragraph is translated, both
 * answering in a JSON schema; custom formatting by the service's
 * speech-understanding endpoint. Progress is announced part by part, Stop
 * ends a run, and results are saved with the transcript.
 */
import { checkCitations, labelSources, type CitationSource, type GivenPassage } from '../../../shared/chat/citations';
import { insightNeeds, type ChatModel, type Insight, type InsightKind, type InsightResult } from '../../../shared/chat/schema';
import { AppError } from '../../../shared/errors';
import type { ServiceClients } from '../clients';
import type { Library } from '../library/library';
import { MAX_PROMPT_CHARS } from './prompt';
import { partBudget, planSummary, tooSmallFor } from './summarise';
import { translateParagraphs } from './translate-parts';
import { templateTask, type Template } from '../../../shared/templates';

export interface InsightEvents {
  /** `done` of `total` parts of a run have been read. */
  progress(p: { recordingId: string; kind: InsightKind; done: number; total: number }): void;
}

export interface InsightRequest {
  recordingId: string;
  kind: InsightKind;
  model?: string;
  /** Target language for translation (a name or code, e.g. "French" or "fr"). */
  language?: string;
  formatting?: { date?: string; phone_number?: string; email?: string };
  /** A summary written to this template's sections. */
  templateId?: string;
}

const str = { type: 'string' };
const nullableStr = { type: ['string', 'null'] };

const SCHEMAS: Record<Exclude<InsightKind, 'custom_formatting' | 'translation'>, { schema: Record<string, unknown>; ask: string }> = {
  summary: {
    schema: {
      type: 'object',
      properties: { bullets: { type: 'array', items: str, minItems: 1, maxItems: 12 } },
      required: ['bullets'],
      additionalProperties: false,
    },
    ask: 'Summarize this transcript in 3 to 8 short bullet points, most important first.',
  },
  action_items: {
    schema: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { owner: nullableStr, task: str, due: nullableStr },
            required: ['owner', 'task', 'due'],
            additionalProperties: false,
          },
        },
      },
      required: ['items'],
      additionalProperties: false,
    },
    ask: 'List the action items agreed in this transcript: who owns each (null if nobody is named), the task, and when it is due as said (null if no date). An empty list if there are none.',
  },
  decisions: {
    schema: { type: 'object', properties: { decisions: { type: 'array', items: str } }, required: ['decisions'], additionalProperties: false },
    ask: 'List the key decisions made in this transcript, one sentence each. An empty list if none were made.',
  },
};

function parseJson(text: string): unknown {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    return JSON.parse(trimmed);
  } catch {
    throw new AppError('server_error', 'The model did not answer in the requested structure. Try again, or choose another model.');
  }
}

export class InsightService {
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly library: Library,
    private readonly clients: ServiceClients,
    private readonly models: () => Promise<{ models: ChatModel[]; defaultModel: string | null }>,
    private readonly events: InsightEvents = { progress: () => undefined },
  ) {}

  list(recordingId: string): Insight[] {
    const [rec] = this.library.retrieval.recordings([recordingId]);
    if (!rec) {
      this.library.recordings.item(recordingId);
      return [];
    }
    return this.library.insights.list(rec.transcriptId);
  }

  /** Stops the run on this recording (what it had read is dropped). */
  stop(recordingId: string): boolean {
    const run = this.running.get(recordingId);
    if (!run) return false;
    run.abort();
    return true;
  }

  dispose(): void {
    for (const r of this.running.values()) r.abort();
  }

  async run(req: InsightRequest, signal?: AbortSignal): Promise<Insight> {
    if (this.running.has(req.recordingId)) throw new AppError('conflict', 'An action is already running on this recording. Wait for it or press Stop.');
    const abort = new AbortController();
    const onAbort = () => abort.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.running.set(req.recordingId, abort);
    try {
      return await this.runOne(req, abort.signal);
    } catch (e) {
      if (abort.signal.aborted) throw new AppError('canceled', 'Stopped.');
      throw e;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.running.delete(req.recordingId);
    }
  }

  private async runOne(req: InsightRequest, signal: AbortSignal): Promise<Insight> {
    const [rec] = this.library.retrieval.recordings([req.recordingId]);
    if (!rec) {
      this.library.recordings.item(req.recordingId);
      throw new AppError('conflict', 'This recording has no finished transcript yet.');
    }
    const gateway = await this.clients.gateway();
    if (req.kind === 'custom_formatting') {
      const f = req.formatting ?? {};
      const target = await this.clients.target();
      if (!rec.remoteId || rec.region !== target.region) {
        throw new AppError(
          'conflict',
          `Custom formatting runs on the service that made the transcript (${rec.region}); Verbatim is set to ${target.region}. Switch the region in Settings to run it.`,
        );
      }
      const answer = await gateway.understanding({ transcript_id: rec.remoteId, speech_understanding: { request: { custom_formatting: f } } }, signal);
      const cf = ((answer.speech_understanding as { response?: { custom_formatting?: { formatted_text?: unknown; mapping?: unknown } } } | undefined)?.response
        ?.custom_formatting ?? {}) as {
        formatted_text?: unknown;
        mapping?: unknown;
      };
      const mapping =
        cf.mapping && typeof cf.mapping === 'object'
          ? Object.fromEntries(Object.entries(cf.mapping).filter((e): e is [string, string] => typeof e[1] === 'string'))
          : {};
      const result: InsightResult = { kind: 'custom_formatting', formattedText: typeof cf.formatted_text === 'string' ? cf.formatted_text : '', mapping };
      return this.library.insights.save(rec.transcriptId, '', null, result);
    }
    const { models, defaultModel } = await this.models();
    const modelId = req.model && models.some((m) => m.id === req.model) ? req.model : defaultModel;
    const model = models.find((m) => m.id === modelId) ?? null;
    const needs = insightNeeds(req.kind, model);
    if (needs || !model) throw new AppError('unavailable', needs ?? 'No model.');
    const progress = (done: number, total: number) => this.events.progress({ recordingId: req.recordingId, kind: req.kind, done, total });
    if (req.kind === 'translation') {
      const language = (req.language ?? '').trim();
      if (!language) throw new AppError('bad_request', 'Choose the language to translate into.');
      const transcript = this.library.transcripts.get(req.recordingId);
      const paragraphs = transcript.paragraphs.length ? transcript.paragraphs : transcript.sentences;
      const translated = await translateParagraphs(
        paragraphs.map((p) => p.text),
        language,
        model.contextLength,
        async (body, sig) => (await gateway.chat({ model: model.id, ...body }, sig)).choices[0]?.message.content ?? '',
        progress,
        signal,
      );
      const result: InsightResult = {
        kind: 'translation',
        language,
        paragraphs: paragraphs.map((p, i) => ({ startMs: p.start, original: p.text, translated: translated[i] ?? '' })),
      };
      return this.library.insights.save(rec.transcriptId, language.toLowerCase(), model.id, result);
    }
    const small = tooSmallFor(model, 1500);
    if (small) throw new AppError('unavailable', small);
    const template = req.kind === 'summary' && req.templateId ? this.library.templates.get(req.templateId) : null;
    const spec = template ? templateSpec(template) : SCHEMAS[req.kind];
    const sources = labelSources([{ id: rec.id, title: rec.title }]);
    const lines = this.library.retrieval.sentences(rec.transcriptId).map((s) => ({ recordingId: rec.id, startMs: s.startMs, text: s.text }));
    const plan = await planSummary({ sources, lines }, spec.ask, Math.min(partBudget(model.contextLength, 1500), MAX_PROMPT_CHARS), {
      signal,
      progress,
      complete: async (messages, sig) => (await gateway.chat({ model: model.id, messages, max_tokens: 400 }, sig)).choices[0]?.message?.content ?? '',
    });
    const [system, user] = plan.messages;
    const res = await gateway.chat(
      {
        model: model.id,
        max_tokens: 1500,
        messages: [
          { role: 'system', content: `${system?.content ?? ''}\n\nAnswer only with JSON matching this schema: ${JSON.stringify(spec.schema)}` },
          { role: 'user', content: user?.content ?? spec.ask },
        ],
        response_format: { type: 'json_schema', json_schema: { name: req.kind, schema: spec.schema } },
      },
      signal,
    );
    const value = parseJson(res.choices[0]?.message.content ?? '') as Record<string, unknown>;
    const result = template ? templateResult(template, value, sources, plan.given) : resultOf(req.kind, value, sources, plan.given);
    return this.library.insights.save(rec.transcriptId, '', model.id, result);
  }
}

/** The answer as a result; every citation in it must be one the summariser allowed (others are taken out). */
function resultOf(
  kind: 'summary' | 'decisions' | 'action_items',
  value: Record<string, unknown>,
  sources: CitationSource[],
  given: GivenPassage[],
): InsightResult {
  const cite = (t: string) => checkCitations(t, sources, given).text.trim();
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => cite(x)) : []);
  const orNull = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  if (kind === 'summary') return { kind: 'summary', bullets: strings(value.bullets) };
  if (kind === 'decisions') return { kind: 'decisions', decisions: strings(value.decisions) };
  const items = Array.isArray(value.items) ? (value.items as Record<string, unknown>[]) : [];
  return {
    kind: 'action_items',
    items: items
      .filter((i) => i && typeof i.task === 'string' && i.task.trim())
      .map((i) => ({ owner: orNull(i.owner), task: cite(String(i.task)), due: orNull(i.due) })),
  };
}

/** A template's ask: its sections in order, each a list of cited bullets. */
function templateSpec(t: Template): { schema: Record<string, unknown>; ask: string } {
  const section = {
    type: 'object',
    properties: { title: str, bullets: { type: 'array', items: str } },
    required: ['title', 'bullets'],
    additionalProperties: false,
  };
  return {
    schema: {
      type: 'object',
      properties: { sections: { type: 'array', items: section, minItems: t.sections.length, maxItems: t.sections.length } },
      required: ['sections'],
      additionalProperties: false,
    },
    ask: templateTask(t),
  };
}

/** The answer under the template's own section titles (in its order), every citation checked. */
function templateResult(t: Template, value: Record<string, unknown>, sources: CitationSource[], given: GivenPassage[]): InsightResult {
  const got = Array.isArray(value.sections) ? (value.sections as Record<string, unknown>[]) : [];
  const sections = t.sections.map((s, i) => {
    const v = got[i];
    const bullets = v && Array.isArray(v.bullets) ? v.bullets.filter((b): b is string => typeof b === 'string' && b.trim() !== '') : [];
    return { title: s.title, bullets: bullets.map((b) => checkCitations(b, sources, given).text.trim()).filter(Boolean) };
  });
  return { kind: 'summary', template: t.name, sections, bullets: sections.flatMap((s) => s.bullets) };
}
