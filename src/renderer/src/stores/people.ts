/** People: the voices Verbatim remembers (named in transcripts, recognised in new ones) and the actions on them. */
import { create, type StateCreator } from 'zustand';
import type { VerbatimApi } from '../../../shared/ipc';
import type { SpeakerNote, Voice, VoiceMatch } from '../../../shared/ipc/people';
import type { SearchHit } from '../../../shared/library';
import { api as bridgeApi, errorMessage } from '../bridge';
import { toast } from './toasts';

interface PeopleState {
  voices: Voice[];
  loaded: boolean;
  load(): Promise<void>;
  /** Each action answers null when done, or the words saying why not. */
  rename(voiceId: string, name: string): Promise<string | null>;
  merge(into: string, from: string): Promise<string | null>;
  split(voiceId: string, recordingId: string, name: string): Promise<string | null>;
  /** `unname`: the transcripts showing the name say "Speaker A" (a letter) instead. */
  forget(voiceId: string, unname?: boolean): Promise<string | null>;
  /** What one voice said that matches `query` (empty after saying why not). */
  search(voiceId: string, query: string): Promise<SearchHit[]>;
  /** A recording's speaker note and recognised voices (empty when they cannot be read). */
  speakersOf(recordingId: string): Promise<{ note: SpeakerNote | null; matches: VoiceMatch[] }>;
  /** Groups a recording's speakers again (null: Auto); answers the new note, or null after saying why not. */
  recluster(recordingId: string, speakers: number | null): Promise<SpeakerNote | null>;
}

export const peopleState =
  (api: VerbatimApi): StateCreator<PeopleState> =>
  (set, get) => {
    const act = async (run: () => Promise<unknown>, done: string): Promise<string | null> => {
      try {
        await run();
        await get().load();
        toast(done, 'ok');
        return null;
      } catch (err) {
        return errorMessage(err);
      }
    };
    return {
      voices: [],
      loaded: false,
      async load() {
        try {
          set({ voices: (await api.invoke('people.list', {})).voices, loaded: true });
        } catch (err) {
          set({ loaded: true });
          toast(errorMessage(err), 'error');
        }
      },
      rename: (voiceId, name) => act(() => api.invoke('people.rename', { voiceId, name }), `Renamed to ${name}.`),
      merge: (into, from) => act(() => api.invoke('people.merge', { into, from }), 'Voices merged.'),
      split: (voiceId, recordingId, name) => act(() => api.invoke('people.split', { voiceId, recordingId, name }), `${name} is a voice of its own now.`),
      forget: (voiceId, unname = false) =>
        act(
          () => api.invoke('people.forget', { voiceId, unname }),
          unname ? 'Voice forgotten, and its name taken out of the transcripts.' : 'Voice forgotten.',
        ),
      async search(voiceId, query) {
        try {
          return (await api.invoke('people.search', { voiceId, query })).hits;
        } catch (err) {
          toast(errorMessage(err), 'error');
          return [];
        }
      },
      async speakersOf(recordingId) {
        try {
          const [note, m] = await Promise.all([api.invoke('people.speakerNote', { id: recordingId }), api.invoke('people.matches', { id: recordingId })]);
          return { note, matches: m.matches };
        } catch {
          return { note: null, matches: [] };
        }
      },
      async recluster(recordingId, speakers) {
        try {
          const n = await api.invoke('people.recluster', { id: recordingId, speakers });
          toast(`Speakers grouped again: ${n.speakers} ${n.speakers === 1 ? 'speaker' : 'speakers'}.`, 'ok');
          return n;
        } catch (err) {
          toast(errorMessage(err), 'error');
          return null;
        }
      },
    };
  };

export const usePeople = create<PeopleState>()(peopleState(bridgeApi));
