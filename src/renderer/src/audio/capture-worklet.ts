/**
 * The capture AudioWorklet (no ScriptProcessor): each 128-sample render
 * quantum is downmixed, resampled to 16 kHz and cut into 50 ms PCM16 frames,
 * posted (transferred) to the page with the audio clock time of their last
 * sample and the block's level.
 */
import { downmix, Framer, Resampler, rms } from './resampler';

declare const sampleRate: number;
declare const currentTime: number;
declare function registerProcessor(name: string, ctor: unknown): void;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}

export interface WorkletFrame {
  pcm: ArrayBuffer;
  /** Audio-clock time (s) just after the frame's last sample. */
  endTime: number;
  level: number;
}

class CaptureProcessor extends AudioWorkletProcessor {
  private readonly resampler = new Resampler(sampleRate);
  private readonly framer = new Framer();
  private peak = 0;

  process(inputs: Float32Array[][]): boolean {
    const channels = inputs[0];
    if (!channels || channels.length === 0) return true;
    const mono = downmix(channels);
    this.peak = Math.max(this.peak, rms(mono));
    const frames = this.framer.push(this.resampler.push(mono));
    for (const f of frames) {
      const msg: WorkletFrame = { pcm: f.buffer as ArrayBuffer, endTime: currentTime + mono.length / sampleRate, level: this.peak };
      this.peak = 0;
      this.port.postMessage(msg, [msg.pcm]);
    }
    return true;
  }
}

registerProcessor('verbatim-capture', CaptureProcessor);
