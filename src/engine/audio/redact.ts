/**
 * Redacted audio: a copy of the decoded audio with a 1 kHz beep (or silence,
 * redact_pii_audio_options.override_audio_redaction_method) over each
 * redacted span, encoded as mp3 or wav by ffmpeg.
 */
import { open } from 'node:fs/promises';
import { runTool } from './spawner';

export async function renderRedactedAudio(
  rawPath: string,
  spans: { start: number; end: number }[],
  out: string,
  quality: 'mp3' | 'wav',
  method: 'beep' | 'silence' = 'beep',
): Promise<void> {
  // Overwrite the spans in place in a copy of the raw file, then encode.
  const tmp = `${out}.raw`;
  const { copyFile, rm } = await import('node:fs/promises');
  await copyFile(rawPath, tmp);
  const fh = await open(tmp, 'r+');
  try {
    for (const s of spans) {
      const from = Math.floor((s.start * 16000) / 1000);
      const to = Math.ceil((s.end * 16000) / 1000);
      if (to <= from) continue;
      const beep = Buffer.alloc((to - from) * 2);
      if (method === 'beep') for (let i = 0; i < to - from; i++) beep.writeInt16LE(Math.round(6000 * Math.sin((2 * Math.PI * 1000 * i) / 16000)), i * 2);
      await fh.write(beep, 0, beep.length, from * 2);
    }
  } finally {
    await fh.close();
  }
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-f', 's16le', '-ar', '16000', '-ac', '1', '-i', tmp];
  if (quality === 'mp3') args.push('-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3', out);
  else args.push('-c:a', 'pcm_s16le', '-f', 'wav', out);
  const { code, stderr } = await runTool('ffmpeg', args);
  await rm(tmp, { force: true });
  if (code !== 0) throw new Error(`ffmpeg could not encode the redacted audio: ${stderr.trim().slice(0, 300)}`);
}
