/**
 * The frame pump of live captions: opens the microphone and/or system audio,
 * runs each through the capture worklet (16 kHz PCM16, 50 ms frames) and sends
 * the frames to main as binary messages; records both, mixed, with
 * MediaRecorder (Opus in WebM) in 1 s chunks that main appends to the session.
 */
import { encodeFrame, type LiveSource } from '../../../shared/audio-frame';
import { sendBinary } from '../bridge';
import workletUrl from './capture-worklet.ts?worker&url';
import type { WorkletFrame } from './capture-worklet';

export interface CaptureInput {
  source: LiveSource;
  stream: MediaStream;
}

export interface CaptureCallbacks {
  level(source: LiveSource, level: number): void;
  /** A track ended by itself (device unplugged, sharing stopped). */
  ended(source: LiveSource): void;
  /** A chunk of the recording as it is handed to main (the captions screen replays them while capture goes on). */
  recorded?(chunk: Blob, at: number): void;
}

/** The recording format: Opus in WebM where the browser can, else what it offers. */
export function recordingMime(): string {
  for (const m of ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm']) if (MediaRecorder.isTypeSupported(m)) return m;
  return 'audio/webm';
}

export class LiveCapture {
  private ctx: AudioContext | null = null;
  private recorder: MediaRecorder | null = null;
  private readonly nodes: AudioNode[] = [];
  private chunks: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly run: number,
    private readonly inputs: CaptureInput[],
    private readonly mime: string,
    private readonly on: CaptureCallbacks,
  ) {}

  async start(): Promise<void> {
    const ctx = new AudioContext({ latencyHint: 'interactive' });
    this.ctx = ctx;
    await ctx.audioWorklet.addModule(workletUrl);
    const mix = ctx.createMediaStreamDestination();
    const mute = ctx.createGain();
    mute.gain.value = 0;
    mute.connect(ctx.destination);
    for (const input of this.inputs) {
      const src = ctx.createMediaStreamSource(input.stream);
      const node = new AudioWorkletNode(ctx, 'verbatim-capture', { numberOfInputs: 1, numberOfOutputs: 1, channelCountMode: 'explicit', channelCount: 2 });
      node.port.onmessage = (e: MessageEvent<WorkletFrame>) => this.onFrame(input.source, e.data);
      src.connect(node);
      // A worklet is pulled only when connected towards the destination; the gain keeps it silent.
      node.connect(mute);
      src.connect(mix);
      this.nodes.push(src, node);
      for (const track of input.stream.getAudioTracks()) track.addEventListener('ended', () => !this.stopped && this.on.ended(input.source));
    }
    if (ctx.state === 'suspended') await ctx.resume();
    const recorder = new MediaRecorder(mix.stream, { mimeType: this.mime, audioBitsPerSecond: 48_000 });
    recorder.ondataavailable = (e) => {
      if (e.data.size === 0) return;
      const at = Date.now();
      this.on.recorded?.(e.data, at);
      // In order: each chunk waits for the one before it.
      this.chunks = this.chunks.then(async () => {
        const bytes = new Uint8Array(await e.data.arrayBuffer());
        // Chunks stay under the bridge's message limit.
        for (let i = 0; i < bytes.length; i += 128 * 1024) {
          sendBinary(encodeFrame({ kind: 'recording', source: 'mic', run: this.run, capturedAt: at, payload: bytes.subarray(i, i + 128 * 1024) }), true);
        }
      });
    };
    this.recorder = recorder;
    recorder.start(1000);
  }

  private onFrame(source: LiveSource, f: WorkletFrame): void {
    if (this.stopped || !this.ctx) return;
    // The frame's last sample, on the page's clock (epoch ms): main reports capture → screen latency with it.
    const capturedAt = Date.now() - Math.max(0, this.ctx.currentTime - f.endTime) * 1000;
    sendBinary(encodeFrame({ kind: 'pcm', source, run: this.run, capturedAt, payload: new Uint8Array(f.pcm) }));
    this.on.level(source, f.level);
  }

  /** Stops capture; resolves once the recording's last chunk has been handed to the bridge. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const rec = this.recorder;
    if (rec && rec.state !== 'inactive') {
      const done = new Promise<void>((r) => rec.addEventListener('stop', () => r(), { once: true }));
      rec.stop();
      await done;
    }
    await this.chunks;
    for (const n of this.nodes) n.disconnect();
    for (const i of this.inputs) for (const t of i.stream.getTracks()) t.stop();
    await this.ctx?.close().catch(() => undefined);
    this.ctx = null;
  }
}

/** Inputs the system offers; PulseAudio/PipeWire "Monitor of …" inputs carry what the computer plays. */
export interface InputDevice {
  deviceId: string;
  label: string;
  isMonitor: boolean;
}

export async function listInputs(): Promise<InputDevice[]> {
  if (!navigator.mediaDevices?.enumerateDevices) return [];
  const all = await navigator.mediaDevices.enumerateDevices();
  return all
    .filter((d) => d.kind === 'audioinput' && d.deviceId !== 'communications')
    .map((d, i) => ({ deviceId: d.deviceId, label: d.label || `Microphone ${i + 1}`, isMonitor: /^monitor of /i.test(d.label) }));
}

export interface MicOptions {
  deviceId: string;
  echoCancellation: boolean;
  noiseSuppression: boolean;
  autoGainControl: boolean;
}

export async function openMicrophone(o: MicOptions): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia)
    throw new Error('This browser gives no access to microphones here (the page must be opened from 127.0.0.1 or localhost).');
  const base = { echoCancellation: o.echoCancellation, noiseSuppression: o.noiseSuppression, autoGainControl: o.autoGainControl, channelCount: 1 };
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: o.deviceId ? { ...base, deviceId: { exact: o.deviceId } } : base });
  } catch (e) {
    // The remembered device is gone: the default microphone instead.
    if (o.deviceId && e instanceof DOMException && e.name === 'OverconstrainedError') return navigator.mediaDevices.getUserMedia({ audio: base });
    throw e;
  }
}

/** What the computer plays: a monitor input where the system has one (Linux), else screen/tab sharing with audio. */
export async function openSystemAudio(): Promise<{ stream: MediaStream; label: string }> {
  const monitor = (await listInputs()).find((d) => d.isMonitor);
  if (monitor) {
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { deviceId: { exact: monitor.deviceId }, echoCancellation: false, noiseSuppression: false, autoGainControl: false },
    });
    return { stream, label: monitor.label };
  }
  if (!navigator.mediaDevices?.getDisplayMedia) throw new SystemAudioUnavailable(systemAudioUnavailableText);
  const stream = await navigator.mediaDevices.getDisplayMedia({
    video: true,
    audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
  });
  // Only the audio is wanted; the picture Chromium insists on is dropped at once.
  for (const v of stream.getVideoTracks()) {
    v.stop();
    stream.removeTrack(v);
  }
  const track = stream.getAudioTracks()[0];
  if (!track) throw new SystemAudioUnavailable('The shared screen or tab has no sound. Share again and tick “Share tab audio” (or “Share system audio”).');
  return { stream, label: track.label || 'System audio' };
}

export class SystemAudioUnavailable extends Error {}

export const systemAudioUnavailableText =
  'This system offers no way to capture what the computer plays: there is no “Monitor of …” input and the browser cannot share screen audio. Use the microphone, or on Linux enable a monitor source in PulseAudio or PipeWire.';

/** A sentence for a capture error: what happened and what to do. */
export function captureErrorText(e: unknown, what: string): string {
  if (e instanceof SystemAudioUnavailable) return e.message;
  if (e instanceof DOMException) {
    if (e.name === 'NotAllowedError')
      return `Verbatim may not use the ${what}: permission was refused. Allow it in the browser's site settings (or the system's privacy settings) and start again.`;
    if (e.name === 'NotFoundError') return `No ${what} was found. Connect one, or pick another input, and start again.`;
    if (e.name === 'NotReadableError') return `The ${what} is busy or failed to start (another app may hold it). Close that app or pick another input.`;
    if (e.name === 'AbortError') return `Starting the ${what} was canceled.`;
  }
  return `The ${what} could not be opened: ${e instanceof Error ? e.message : String(e)}`;
}
