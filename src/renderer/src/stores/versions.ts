/**
 * The versions of a live session's transcript (the live one, improved ones):
 * followed while shown, improved on request (the recording goes to the
 * service as a pre-recorded job), and one of them put in the open transcript.
 */
import { useEffect, useState } from 'react';
import type { Output } from '../../../shared/ipc';
import { unpackTranscript } from '../../../shared/transcript-columns';
import { api } from '../bridge';
import { useTranscript } from './transcript';

export type Version = Output<'captions.versions'>['versions'][number];

/** A recording's versions, newest first, reloaded whenever the library says it changed; null until known (or when asking failed). */
export function useVersions(recordingId: string): Version[] | null {
  const [versions, setVersions] = useState<Version[] | null>(null);
  useEffect(() => {
    let alive = true;
    const load = () =>
      api
        .invoke('captions.versions', { id: recordingId })
        .then((v) => alive && setVersions(v.versions))
        .catch(() => alive && setVersions(null));
    void load();
    const off = api.on('library.changed', (c) => c.ids.includes(recordingId) && void load());
    return () => {
      alive = false;
      off();
    };
  }, [recordingId]);
  return versions;
}

/** Sends the recording to be transcribed again as a pre-recorded job (its answer arrives as a new version). */
export async function improveAccuracy(recordingId: string): Promise<void> {
  await api.invoke('captions.improve', { id: recordingId });
}

/** Shows one version in the open transcript: a transcript id, or null for the newest. */
export function showVersion(recordingId: string, transcriptId: string | null): void {
  const load = transcriptId ? api.invoke('captions.version', { id: recordingId, transcriptId }) : api.invoke('library.get', { id: recordingId });
  void load.then((t) => useTranscript.getState().applyTranscript(unpackTranscript(t))).catch(() => undefined);
}
