/**
 * The renderer's one typed client of the IPC contract. In Electron it wraps
 * the preload's window.verbatim; in host mode it speaks the same messages over
 * a WebSocket to the host server. Nothing else in the renderer knows which.
 */
import { AppError, type ErrorInfo } from '../../shared/errors';
import type { BridgeResponse, Channel, EventName, Input, Output, Payload, RawBridge, Reply, VerbatimApi } from '../../shared/ipc';

declare global {
  interface Window {
    verbatim?: RawBridge;
  }
}

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

interface Pending {
  resolve: (reply: Reply) => void;
}

/** The host-mode transport: one WebSocket, reconnecting with backoff. */
export class SocketBridge implements RawBridge {
  private ws: WebSocket | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly queue: string[] = [];
  private readonly binaryQueue: ArrayBuffer[] = [];
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly stateListeners = new Set<(s: ConnectionState) => void>();
  private attempt = 0;
  private everOpened = false;
  state: ConnectionState = 'connecting';

  constructor(private readonly url: string) {
    this.connect();
  }

  private setState(s: ConnectionState): void {
    this.state = s;
    for (const l of this.stateListeners) l(s);
  }

  onState(listener: (s: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private connect(): void {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.everOpened = true;
      this.setState('open');
      for (const frame of this.binaryQueue.splice(0)) ws.send(frame);
      for (const frame of this.queue.splice(0)) ws.send(frame);
    };
    ws.onmessage = (e: MessageEvent) => {
      if (typeof e.data !== 'string') return;
      const msg = JSON.parse(e.data) as BridgeResponse;
      if ('event' in msg) {
        for (const l of this.listeners.get(msg.event) ?? []) l(msg.payload);
        return;
      }
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      p.resolve('error' in msg ? { ok: false, error: msg.error } : { ok: true, output: msg.output });
    };
    ws.onclose = (e: CloseEvent) => {
      const lost: ErrorInfo = {
        code: 'unavailable',
        message: 'Lost the connection to Verbatim. It reconnects by itself; try again in a moment.',
      };
      for (const [, p] of this.pending) p.resolve({ ok: false, error: lost });
      this.pending.clear();
      // Refused at the first attempt: a missing or stale token (the page was not
      // opened from the link host mode printed). Retrying cannot help.
      if (!this.everOpened || e.code === 1008) {
        this.setState('closed');
        return;
      }
      this.setState('reconnecting');
      const delay = Math.min(5000, 250 * 2 ** this.attempt++) * (0.75 + Math.random() * 0.5);
      setTimeout(() => this.connect(), delay);
    };
  }

  /** A binary message (audio frames). `keep`: queue it while reconnecting (recording chunks); else drop it (live PCM). */
  sendBinary(data: ArrayBuffer, keep = false): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(data);
    else if (keep && this.binaryQueue.length < 600) this.binaryQueue.push(data);
  }

  invoke(channel: string, input: unknown): Promise<Reply> {
    const id = this.nextId++;
    const frame = JSON.stringify({ id, channel, input });
    return new Promise<Reply>((resolve) => {
      this.pending.set(id, { resolve });
      if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(frame);
      else this.queue.push(frame);
    });
  }

  on(event: string, listener: (payload: unknown) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }
}

/**
 * The launch token: read once from `?token=` and kept in this tab's
 * sessionStorage (so a reload reconnects), then taken out of the address bar
 * and the history entry so it is not left on screen, in history or in a
 * copied link.
 */
function hostToken(): string | null {
  const params = new URLSearchParams(window.location.search);
  const fromUrl = params.get('token');
  if (fromUrl) {
    sessionStorage.setItem('verbatim.token', fromUrl);
    params.delete('token');
    const query = params.toString();
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`);
    return fromUrl;
  }
  return sessionStorage.getItem('verbatim.token');
}

function createRaw(): { raw: RawBridge; socket?: SocketBridge } {
  if (window.verbatim) return { raw: window.verbatim };
  const token = hostToken() ?? '';
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new SocketBridge(`${scheme}://${window.location.host}/bridge?token=${encodeURIComponent(token)}`);
  return { raw: socket, socket };
}

/** The transport, made on first use: importing this module opens nothing (a store's test imports it without a window or server). */
let made: { raw: RawBridge; socket?: SocketBridge } | undefined;
function connection(): { raw: RawBridge; socket?: SocketBridge } {
  return (made ??= createRaw());
}

/** Which transport the page uses (read without connecting): the preload's window.verbatim in Electron, else the host's WebSocket. */
export const transport: 'electron' | 'host' = typeof window !== 'undefined' && window.verbatim ? 'electron' : 'host';

/** Connection state of the transport (Electron IPC is always open). */
export function onConnectionState(listener: (s: ConnectionState) => void): () => void {
  const { socket } = connection();
  if (!socket) {
    listener('open');
    return () => undefined;
  }
  listener(socket.state);
  return socket.onState(listener);
}

export const api: VerbatimApi = {
  async invoke<C extends Channel>(channel: C, ...args: unknown[]): Promise<Output<C>> {
    const reply = await connection().raw.invoke(channel, args[0] as Input<C>);
    if (!reply.ok) throw AppError.from(reply.error);
    return reply.output as Output<C>;
  },
  on<E extends EventName>(event: E, listener: (payload: Payload<E>) => void): () => void {
    return connection().raw.on(event, listener as (p: unknown) => void);
  },
};

/**
 * Sends a binary message of the contract (ipc.ts binaryMessages: live audio
 * frames). Electron: through the preload; host mode: a binary WebSocket message.
 * `keep` queues it across a reconnect (recording chunks must not be lost).
 */
export function sendBinary(data: ArrayBuffer, keep = false): void {
  const { raw, socket } = connection();
  if (socket) socket.sendBinary(data, keep);
  else raw.sendBinary?.(data);
}

/** Upload progress of a file on its way to main (host mode's HTTP route). */
export interface UploadProgress {
  bytes: number;
  total: number;
  bytesPerSecond: number;
  etaSeconds: number | null;
}

/** What the renderer hands main for a dropped or picked file. */
export type FileSource = { kind: 'path'; path: string } | { kind: 'upload'; uploadId: string };

/** Electron's preload adds `pathForFile` (webUtils.getPathForFile, which also tells main the user picked it); host mode uploads the bytes instead. */
export function electronPathFor(file: File): string | null {
  const bridge = window.verbatim;
  const path = bridge?.pathForFile?.(file);
  return path ? path : null;
}

/**
 * Hands a File to main. Electron: its path on disk (nothing is copied). Host
 * mode: POSTs the bytes to the token-guarded `/upload` route with progress, and
 * answers the upload id to name in a FileRef (`jobs.addFiles`, `models.installFile`, `subtitles.importNew`). Aborting the signal stops it.
 */
export function uploadFile(file: File, onProgress: (p: UploadProgress) => void, signal?: AbortSignal): Promise<FileSource> {
  const path = electronPathFor(file);
  if (path) return Promise.resolve({ kind: 'path', path });
  if (window.verbatim) {
    return Promise.reject(
      new AppError(
        'unavailable',
        `This build of the desktop app cannot see where “${file.name}” is on disk, so it cannot add it. Run Verbatim in host mode (npm run serve) to add files until an update fixes this.`,
      ),
    );
  }
  const token = hostToken() ?? '';
  const url = `/upload?token=${encodeURIComponent(token)}&name=${encodeURIComponent(file.name)}`;
  return new Promise<FileSource>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const started = performance.now();
    xhr.open('POST', url);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      const elapsed = (performance.now() - started) / 1000;
      const rate = elapsed > 0.2 ? e.loaded / elapsed : 0;
      const total = e.lengthComputable ? e.total : file.size;
      onProgress({ bytes: e.loaded, total, bytesPerSecond: rate, etaSeconds: rate > 0 ? (total - e.loaded) / rate : null });
    };
    xhr.onload = () => {
      const body = xhr.response as { uploadId?: string; error?: string } | null;
      if (xhr.status === 200 && body?.uploadId) resolve({ kind: 'upload', uploadId: body.uploadId });
      else if (xhr.status === 401)
        reject(
          new AppError(
            'forbidden',
            'Verbatim refused the upload: this page was not opened from the link `npm run serve` printed. Open that link and try again.',
          ),
        );
      else if (xhr.status === 413)
        reject(new AppError('file_too_large', `“${file.name}” is larger than 5 GB, the most Verbatim accepts. Pick a smaller file or trim it first.`));
      else
        reject(
          new AppError(
            'network',
            `The upload of “${file.name}” failed${body?.error ? `: ${body.error}` : ''}. Check that Verbatim is still running, then retry.`,
          ),
        );
    };
    xhr.onerror = () => reject(new AppError('network', `The upload of “${file.name}” was interrupted. Check that Verbatim is still running, then retry.`));
    xhr.onabort = () => reject(new AppError('canceled', `The upload of “${file.name}” was canceled.`));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/** Saves text the user exported as a download (a browser; the desktop app uses `library.saveExport`). */
export function saveText(filename: string, mime: string, content: string): void {
  saveBlob(filename, new Blob([content], { type: mime }));
}

/** Saves an export as a download: text, or base64 for binary formats (DOCX). */
export function saveExportFile(out: { filename: string; mime: string; content: string; encoding: 'utf8' | 'base64' }): void {
  if (out.encoding === 'utf8') return saveText(out.filename, out.mime, out.content);
  const bin = atob(out.content);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  saveBlob(out.filename, new Blob([bytes], { type: out.mime }));
}

function saveBlob(filename: string, blob: Blob): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** Turns a media URL from `library.mediaUrl` into one the page can load. */
export function mediaSrc(url: string | null): string | null {
  if (!url) return null;
  return new URL(url, window.location.href).toString();
}

/** Reads the message of an error thrown by api.invoke, for display. */
export function errorMessage(err: unknown): string {
  if (err instanceof AppError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The code of an error thrown by api.invoke, or null. */
export function errorCode(err: unknown): ErrorInfo['code'] | null {
  return err instanceof AppError ? err.code : null;
}
