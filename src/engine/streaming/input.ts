/** What a Streaming v3 client sends, checked: control messages parsed, audio frames held to their size and to real time. */
import type { z } from 'zod';
import { StreamingClientMessageSchema } from '../../shared/api/streaming';
import { decodeMulaw } from './mulaw';
import { CLOSE, frameMs, StreamingClose, type StreamingParams } from './params';

/** A text message as a control message, with the raw JSON (UpdateConfiguration's tunables are read from it); a bad one closes 3008. */
export function parseControl(text: string): { message: z.output<typeof StreamingClientMessageSchema>; json: Record<string, unknown> } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StreamingClose(CLOSE.invalidMessage, 'Invalid JSON in a text message; send binary audio or a JSON control message');
  }
  const parsed = StreamingClientMessageSchema.safeParse(json);
  if (!parsed.success) throw new StreamingClose(CLOSE.invalidMessage, parsed.error.issues[0]?.message ?? 'Invalid control message');
  return { message: parsed.data, json: json as Record<string, unknown> };
}

/** Checks each binary frame (50–1000 ms, no faster than real time beyond `burstMs`) and decodes it to 16-bit PCM. */
export class AudioPacer {
  private inputMs = 0;
  private firstAudioAt = 0;

  constructor(private readonly burstMs: number) {}

  accept(data: Buffer, params: StreamingParams): Int16Array {
    const ms = frameMs(data.length, params);
    if (ms === null || ms < 50 - 1e-6 || ms > 1000 + 1e-6) {
      throw new StreamingClose(
        CLOSE.badAudio,
        `Input duration violation: ${ms === null ? 'a partial sample' : `${ms.toFixed(1)} ms`}; send audio frames of 50 to 1000 ms`,
      );
    }
    const now = Date.now();
    if (this.firstAudioAt === 0) this.firstAudioAt = now;
    this.inputMs += ms;
    if (this.inputMs - (now - this.firstAudioAt) > this.burstMs) {
      throw new StreamingClose(
        CLOSE.badAudio,
        `Audio sent faster than real time (${Math.round(this.inputMs)} ms of audio in ${now - this.firstAudioAt} ms); send it at its natural pace`,
      );
    }
    return params.encoding === 'pcm_mulaw' ? decodeMulaw(data) : new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.length));
  }
}
