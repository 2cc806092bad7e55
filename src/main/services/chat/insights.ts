/**
 * Speech-understanding actions on one transcript: summary, action items, key
 * decisions and translation by chat completions answering in a JSON schema;
 * custom formatting by the service's speech-understanding endpoint. Results
 * are saved with the transcript.
 */
import { insightNeeds, type ChatModel, type Insight, type InsightKind, type InsightResult } from '../../../shared/chat/schema';
import { AppError } from '../../../shared/errors';
import type { ServiceClients } from '../clients';
import type { Library } from '../library/library';
import { MAX_PROMPT_CHARS } from './prompt';

export interface InsightRequest {
  recordingId: string;
  kind: InsightKind;
  model?: string;
  /** Target language for translation (a name or code, e.g. "French" or "fr"). */
  language?: string;
  formatting?: { date?: string; phone_number?: string; email?: string };
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
  constructor(
    private readonly library: Library,
    private readonly clients: ServiceClients,
    private readonly models: () => Promise<{ models: ChatModel[]; defaultModel: string | null }>,
  ) {}

  list(recordingId: string): Insight[] {
    const [rec] = this.library.retrieval.recordings([recordingId]);
    if (!rec) {
      this.library.recordings.item(recordingId);
      return [];
    }
    return this.library.insights.list(rec.transcriptId);
  }

  async run(req: InsightRequest, signal?: AbortSignal): Promise<Insight> {
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
    const budget = Math.min(MAX_PROMPT_CHARS, Math.floor((model.contextLength - 2500) * 3.5 * 0.8));
    const transcript = this.library.transcripts.get(req.recordingId);
    if (req.kind === 'translation') {
      const language = (req.language ?? '').trim();
      if (!language) throw new AppError('bad_request', 'Choose the language to translate into.');
      const paragraphs = transcript.paragraphs.length ? transcript.paragraphs : transcript.sentences;
      const numbered: string[] = [];
      let used = 0;
      for (const p of paragraphs) {
        const line = `${numbered.length + 1}. ${p.text}`;
        if (used + line.length > budget / 2.5) break;
        numbered.push(line);
        used += line.length;
      }
      const schema = { type: 'object', properties: { paragraphs: { type: 'array', items: str } }, required: ['paragraphs'], additionalProperties: false };
      const res = await gateway.chat(
        {
          model: model.id,
          max_tokens: Math.min(8000, Math.max(1000, Math.ceil(used / 2.5))),
          messages: [
            {
              role: 'system',
              content:
                'You translate transcripts paragraph by paragraph. Answer in JSON: {"paragraphs": [...]}, one translated string per numbered paragraph, in order, without the numbers.',
            },
            { role: 'user', content: `Translate into ${language}:\n\n${numbered.join('\n')}` },
          ],
          response_format: { type: 'json_schema', json_schema: { name: 'translation', schema } },
        },
        signal,
      );
      const out = parseJson(res.choices[0]?.message.content ?? '') as { paragraphs?: unknown };
      const translated = Array.isArray(out.paragraphs) ? out.paragraphs.map((p) => (typeof p === 'string' ? p : '')) : [];
      const result: InsightResult = {
        kind: 'translation',
        language,
        paragraphs: paragraphs.slice(0, numbered.length).map((p, i) => ({ startMs: p.start, original: p.text, translated: translated[i] ?? '' })),
      };
      return this.library.insights.save(rec.transcriptId, language.toLowerCase(), model.id, result);
    }
    const spec = SCHEMAS[req.kind];
    const text = transcript.paragraphs
      .map((p) => p.text)
      .join('\n\n')
      .slice(0, budget);
    const res = await gateway.chat(
      {
        model: model.id,
        max_tokens: 1500,
        messages: [
          { role: 'system', content: `${spec.ask} Answer only with JSON matching this schema: ${JSON.stringify(spec.schema)}` },
          { role: 'user', content: `Transcript of “${rec.title}”:\n\n${text}` },
        ],
        response_format: { type: 'json_schema', json_schema: { name: req.kind, schema: spec.schema } },
      },
      signal,
    );
    const value = parseJson(res.choices[0]?.message.content ?? '') as Record<string, unknown>;
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim()) : []);
    const orNull = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
    let result: InsightResult;
    if (req.kind === 'summary') result = { kind: 'summary', bullets: strings(value.bullets) };
    else if (req.kind === 'decisions') result = { kind: 'decisions', decisions: strings(value.decisions) };
    else {
      const items = Array.isArray(value.items) ? (value.items as Record<string, unknown>[]) : [];
      result = {
        kind: 'action_items',
        items: items
          .filter((i) => i && typeof i.task === 'string' && i.task.trim())
          .map((i) => ({ owner: orNull(i.owner), task: String(i.task).trim(), due: orNull(i.due) })),
      };
    }
    return this.library.insights.save(rec.transcriptId, '', model.id, result);
  }
}
