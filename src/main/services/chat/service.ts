/**
 * Chats over recordings: starting one (a transcript, a selection, the whole
 * library), the region's models, sending a question (retrieval, prompt,
 * streamed answer, citations), Stop, and waiting out a rate limit before
 * retrying by itself. Every change is saved and announced as an event.
 */
import { chatActionFor, templateNameOf, type ChatAction } from '../../../shared/chat/actions';
import { templateTask } from '../../../shared/templates';
import { checkCitations, labelSources, type CitationSource, type GivenPassage } from '../../../shared/chat/citations';
import {
  EXTRACTIVE_MODEL,
  type ChatDetail,
  type ChatMessage,
  type ChatModel,
  type ChatSource,
  type ChatState,
  type ChatSummary,
} from '../../../shared/chat/schema';
import { AppError } from '../../../shared/errors';
import type { ChatMessage as GatewayMessage } from '../../../shared/api/gateway';
import type { ServiceClients } from '../clients';
import type { Library } from '../library/library';
import type { Retrieved } from '../library/retrieval';
import { chatMarkdown } from './markdown';
import { budgetChars, buildMessages, buildTranscriptIdMessages, MAX_PROMPT_CHARS } from './prompt';
import { citeQuotes } from './quotes';
import { actionPrompt, partBudget, tooSmallFor } from './summarise';

export interface ChatEvents {
  delta(p: { chatId: string; messageId: number; text: string }): void;
  message(p: { chatId: string; message: ChatMessage }): void;
  state(p: ChatState): void;
  changed(p: { id: string; reason: 'created' | 'updated' | 'deleted' }): void;
}

export interface ChatServiceOptions {
  /** Longest wait for a rate limit before giving up (default 10 min). */
  maxWaitMs?: number;
  /** How often streamed pieces are sent on (default 40 ms). */
  flushMs?: number;
}

interface Running {
  abort: AbortController;
  messageId: number;
}

export class ChatService {
  private readonly running = new Map<string, Running>();
  private modelCache: { region: string; at: number; models: ChatModel[] } | null = null;

  constructor(
    private readonly library: Library,
    private readonly clients: ServiceClients,
    private readonly events: ChatEvents,
    private readonly opts: ChatServiceOptions = {},
  ) {}

  /** The models of the current region's gateway (cached for a minute), and which one a new chat uses. */
  async models(fresh = false): Promise<{ region: string; models: ChatModel[]; defaultModel: string | null }> {
    const target = await this.clients.target();
    if (fresh || !this.modelCache || this.modelCache.region !== target.region || Date.now() - this.modelCache.at > 60_000) {
      const list = await (await this.clients.gateway()).models();
      const models = list.map((m) => {
        const raw = m as { id: string; name?: string; description?: string; context_length?: number };
        return {
          id: raw.id,
          name: raw.name || raw.id,
          description: raw.description ?? '',
          contextLength: Number.isInteger(raw.context_length) && (raw.context_length ?? 0) > 0 ? (raw.context_length as number) : 8192,
          generative: raw.id !== EXTRACTIVE_MODEL,
        };
      });
      this.modelCache = { region: target.region, at: Date.now(), models };
    }
    const models = this.modelCache.models;
    return { region: target.region, models, defaultModel: (models.find((m) => m.generative) ?? models[0])?.id ?? null };
  }

  list(query?: string): ChatSummary[] {
    return this.library.chats.list({ query });
  }

  get(id: string): ChatDetail {
    const detail = this.library.chats.detail(id);
    const run = this.running.get(id);
    // The answer being written is shown as streaming, not as a stopped one.
    if (run) detail.messages = detail.messages.map((m) => (m.id === run.messageId ? { ...m, status: 'streaming' } : m));
    return detail;
  }

  create(input: { recordingIds?: string[]; scope: 'recordings' | 'library'; model?: string; title?: string }): ChatDetail {
    const ids = [...new Set(input.recordingIds ?? [])];
    if (input.scope === 'recordings' && ids.length === 0)
      throw new AppError('bad_request', 'Choose at least one recording to ask about, or ask the whole library.');
    const recs = input.scope === 'recordings' ? this.library.retrieval.recordings(ids) : [];
    if (input.scope === 'recordings' && recs.length === 0)
      throw new AppError('conflict', 'None of these recordings has a finished transcript yet. Ask again once they are transcribed.');
    const title =
      input.title ??
      (input.scope === 'library'
        ? 'Whole library'
        : recs.length === 1
          ? (recs[0] as { title: string }).title
          : `${(recs[0] as { title: string }).title} and ${recs.length - 1} more`);
    const chat = this.library.chats.create({ scope: input.scope, recordingIds: recs.map((r) => r.id), title, model: input.model ?? null });
    this.events.changed({ id: chat.id, reason: 'created' });
    return { ...chat, messages: [] };
  }

  rename(id: string, title: string): ChatSummary {
    const c = this.library.chats.rename(id, title);
    this.events.changed({ id, reason: 'updated' });
    return c;
  }

  setModel(id: string, model: string): ChatSummary {
    const c = this.library.chats.setModel(id, model);
    this.events.changed({ id, reason: 'updated' });
    return c;
  }

  delete(id: string): void {
    this.stop(id);
    this.library.chats.delete(id);
    this.events.changed({ id, reason: 'deleted' });
  }

  exportMarkdown(id: string): { filename: string; mime: string; content: string } {
    const chat = this.library.chats.detail(id);
    const safe =
      chat.title
        .replace(/[^\p{L}\p{N} _-]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 80) || 'Chat';
    return { filename: `${safe}.md`, mime: 'text/markdown', content: chatMarkdown(chat) };
  }

  /** Saves the question, starts the answer, and returns both at once; the answer arrives by events. */
  send(chatId: string, text: string): { question: ChatMessage; answer: ChatMessage } {
    if (this.running.has(chatId)) throw new AppError('conflict', 'This chat is still answering. Wait for it or press Stop.');
    const chat = this.library.chats.summary(chatId);
    const history = this.library.chats.messages(chatId);
    const question = this.library.chats.addMessage(chatId, { role: 'user', content: text });
    const answer = this.library.chats.addMessage(chatId, { role: 'assistant', content: '', status: 'streaming', model: chat.model });
    const run: Running = { abort: new AbortController(), messageId: answer.id };
    this.running.set(chatId, run);
    this.events.changed({ id: chatId, reason: 'updated' });
    void this.answer(chat, history, text, run).finally(() => {
      if (this.running.get(chatId) === run) this.running.delete(chatId);
      this.events.state({ chatId, state: 'idle', retryAt: null, message: null });
    });
    return { question, answer: { ...answer, status: 'streaming' } };
  }

  stop(chatId: string): boolean {
    const run = this.running.get(chatId);
    if (!run) return false;
    run.abort.abort();
    return true;
  }

  dispose(): void {
    for (const r of this.running.values()) r.abort.abort();
  }

  private async answer(chat: ChatSummary, history: ChatMessage[], question: string, run: Running): Promise<void> {
    const chatId = chat.id;
    const signal = run.abort.signal;
    let content = '';
    let sources: ChatSource[] = [];
    let labels: CitationSource[] = [];
    let given: GivenPassage[] = [];
    let pending = '';
    let timer: NodeJS.Timeout | null = null;
    // The model that wrote the answer: none when the app answers in its own words (nothing to ask, no model) or the model sent nothing.
    let answeredBy: string | null = null;
    const flush = () => {
      timer = null;
      if (!pending) return;
      this.events.delta({ chatId, messageId: run.messageId, text: pending });
      pending = '';
    };
    const finish = (status: ChatMessage['status'], error: string | null = null) => {
      if (timer) clearTimeout(timer);
      flush();
      // Every citation must point at a passage the model was given; an invented one is taken out of the answer.
      const checked = checkCitations(content, labels, given);
      content = checked.text;
      const message = this.library.chats.updateMessage(run.messageId, { content, status, error, citations: checked.citations, sources, model: answeredBy });
      this.events.message({ chatId, message });
      this.events.changed({ id: chatId, reason: 'updated' });
    };
    try {
      this.events.state({ chatId, state: 'thinking', retryAt: null, message: null });
      const { models, defaultModel } = await this.models();
      const model = chat.model && models.some((m) => m.id === chat.model) ? chat.model : defaultModel;
      if (!model) throw new AppError('unavailable', 'The service offers no chat model. Check the connection in Settings, or use the local engine.');
      if (model !== chat.model) {
        this.library.chats.setModel(chatId, model);
        chat = { ...chat, model };
      }
      const info = models.find((m) => m.id === model) as ChatModel;
      const action = chatActionFor(question) ?? this.templateAction(question);
      const prompt =
        action && chat.scope === 'recordings' ? await this.actionPrompt(chat, action, info, signal) : await this.prompt(chat, history, question, info);
      sources = prompt.sources;
      labels = prompt.labels;
      given = prompt.given;
      if (prompt.empty) {
        content = prompt.empty;
        finish('done');
        return;
      }
      const gateway = await this.clients.gateway();
      for (;;) {
        try {
          content = '';
          await gateway.chatStream(
            { model, messages: prompt.messages, max_tokens: 1500, ...(prompt.transcriptId ? { transcript_id: prompt.transcriptId } : {}) },
            (piece) => {
              answeredBy = model;
              if (!content) this.events.state({ chatId, state: 'streaming', retryAt: null, message: null });
              content += piece;
              pending += piece;
              if (!timer) timer = setTimeout(flush, this.opts.flushMs ?? 40);
            },
            signal,
          );
          answeredBy = model;
          break;
        } catch (err) {
          if (signal.aborted) throw err;
          if (!(err instanceof AppError) || err.code !== 'rate_limited' || content) throw err;
          const waitMs = Math.max(1000, (err.retryAfter ?? 30) * 1000);
          if (waitMs > (this.opts.maxWaitMs ?? 600_000)) throw err;
          const retryAt = new Date(Date.now() + waitMs).toISOString();
          this.events.state({ chatId, state: 'waiting', retryAt, message: err.message });
          await sleep(waitMs, signal);
          this.events.state({ chatId, state: 'thinking', retryAt: null, message: null });
        }
      }
      if (prompt.quoteSentences) content = citeQuotes(content, prompt.quoteSentences, labels[0]?.label ?? '');
      finish('done');
    } catch (err) {
      if (signal.aborted) {
        finish('stopped');
        return;
      }
      finish('error', err instanceof Error ? err.message : String(err));
    }
  }

  /** A summary written to one of the library's templates, asked by its question (templateQuestion). */
  private templateAction(question: string): ChatAction | null {
    const name = templateNameOf(question);
    const t = name ? this.library.templates.list().find((x) => x.name === name) : undefined;
    return t ? { id: 'summary', label: t.name, question, task: templateTask(t) } : null;
  }

  /** A one-click action (summary, action items, follow-up) over the chat's whole recordings, map-reduced when they do not fit. */
  private async actionPrompt(
    chat: ChatSummary,
    action: ChatAction,
    model: ChatModel,
    signal: AbortSignal,
  ): Promise<Awaited<ReturnType<ChatService['prompt']>>> {
    const recs = this.library.retrieval.recordings(chat.recordings.map((r) => r.id));
    const none = { messages: [], sources: [], labels: [], given: [] };
    if (!recs.length) return { ...none, empty: 'The recordings of this chat are no longer in the library, so there is nothing to work from.' };
    if (!model.generative)
      return {
        ...none,
        empty: `${action.label} needs a model that writes; ${model.name} only quotes. Download a chat model (Qwen2.5 1.5B Instruct is a good start) in Settings → Models, or add a cloud key, then ask again.`,
      };
    const small = tooSmallFor(model, 1500);
    if (small) return { ...none, empty: small };
    const labels = labelSources(recs.map((r) => ({ id: r.id, title: r.title })));
    const recordings = recs.map((r, i) => ({
      recordingId: r.id,
      label: (labels[i] as CitationSource).label,
      sentences: this.library.retrieval.sentences(r.transcriptId),
    }));
    const gateway = await this.clients.gateway();
    const planned = await actionPrompt(action, recordings, Math.min(partBudget(model.contextLength, 1500), MAX_PROMPT_CHARS), {
      signal,
      progress: (done, total) =>
        this.events.state({ chatId: chat.id, state: 'thinking', retryAt: null, message: `Reading the recording in ${total} parts: ${done} of ${total} done…` }),
      complete: async (messages, sig) => (await gateway.chat({ model: model.id, messages, max_tokens: 400 }, sig)).choices[0]?.message?.content ?? '',
    });
    const sources = recordings.map((r) => ({
      recordingId: r.recordingId,
      title: recs.find((x) => x.id === r.recordingId)?.title ?? r.label,
      label: r.label,
      passages: r.sentences.length,
    }));
    return { messages: planned.messages, sources, labels, given: planned.given };
  }

  /** Retrieval and messages for one question. */
  private async prompt(
    chat: ChatSummary,
    history: ChatMessage[],
    question: string,
    model: ChatModel,
  ): Promise<{
    messages: GatewayMessage[];
    sources: ChatSource[];
    labels: CitationSource[];
    /** The passages the prompt gave, which citations must point at. */
    given: GivenPassage[];
    transcriptId?: string;
    quoteSentences?: { startMs: number; text: string }[];
    empty?: string;
  }> {
    const ids = chat.scope === 'library' ? null : chat.recordings.map((r) => r.id);
    if (ids && ids.length === 0) {
      return {
        messages: [],
        sources: [],
        labels: [],
        given: [],
        empty: 'The recordings of this chat are no longer in the library, so there is nothing to answer from. Start a new chat from the library.',
      };
    }
    const target = await this.clients.target();
    // One cloud transcript the service itself holds: send its id, not its text.
    if (ids?.length === 1 && model.generative && (target.region === 'us' || target.region === 'eu')) {
      const [rec] = this.library.retrieval.recordings(ids);
      if (rec?.remoteId && rec.region === target.region) {
        const [label] = labelSources([rec]) as [CitationSource];
        const sentences = this.library.retrieval.sentences(rec.transcriptId);
        return {
          messages: buildTranscriptIdMessages(question, history, label),
          transcriptId: rec.remoteId,
          sources: [{ recordingId: rec.id, title: rec.title, label: label.label, passages: 1 }],
          labels: [label],
          given: sentences.map((x) => ({ recordingId: rec.id, startMs: x.startMs })),
          quoteSentences: sentences,
        };
      }
    }
    const historyChars = model.generative ? history.reduce((a, m) => a + m.content.length, 0) : 0;
    const budget = Math.min(budgetChars(model.contextLength, Math.min(historyChars, 40_000)), MAX_PROMPT_CHARS);
    // A follow-up ("and who said that?") has few words of its own: the previous question's words help find the passages.
    const lastQuestion = [...history].reverse().find((m) => m.role === 'user')?.content ?? '';
    let retrieved: Retrieved = this.library.retrieval.retrieve(question, { recordingIds: ids, budgetChars: budget });
    if (!retrieved.recordings.length && lastQuestion)
      retrieved = this.library.retrieval.retrieve(`${question} ${lastQuestion}`, { recordingIds: ids, budgetChars: budget });
    if (!retrieved.recordings.length) {
      return {
        messages: [],
        sources: [],
        labels: [],
        given: [],
        empty:
          chat.scope === 'library'
            ? 'No transcript in the library contains the words of this question. Try the words the speakers would have used, or a name or topic from the recording.'
            : 'These transcripts do not contain the words of this question. Try the words the speakers would have used.',
      };
    }
    // The offline model ranks every word of a line, titles included: a title word of the question would match every line.
    // It gets bare times for one recording and #1, #2… for several; the app shows the titles.
    const labels = model.generative
      ? labelSources(retrieved.recordings.map((r) => ({ id: r.recording.id, title: r.recording.title })))
      : retrieved.recordings.map((r, i) => ({ recordingId: r.recording.id, label: retrieved.recordings.length === 1 ? '' : `#${i + 1}` }));
    const sources = retrieved.recordings.map((r, i) => ({
      recordingId: r.recording.id,
      title: r.recording.title,
      label: (labels[i] as CitationSource).label,
      passages: r.passages.length,
    }));
    const given = retrieved.recordings.flatMap((r) => r.passages.map((p) => ({ recordingId: r.recording.id, startMs: p.startMs })));
    return { messages: buildMessages({ question, history, retrieved, sources: labels, extractive: !model.generative }), sources, labels, given };
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new AppError('canceled', 'Stopped.'));
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new AppError('canceled', 'Stopped.'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
