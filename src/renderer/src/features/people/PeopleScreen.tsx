/**
 * People: the voices Verbatim remembers. Naming a speaker in a transcript remembers the voice; new
 * recordings then show that name when the voice matches at or above the level set here. Each voice lists
 * the recordings it speaks in and can be renamed, merged into another, split by recording, or forgotten.
 */
import { useEffect, useId, useState } from 'react';
import type { Voice } from '../../../../shared/ipc/people';
import type { SearchHit } from '../../../../shared/library';
import { matchText } from '../../../../shared/voices/live';
import { MAX_VOICE_NAME } from '../../../../shared/voices/names';
import { Button } from '../../components/Button';
import { useApp } from '../../stores/app';
import { usePeople } from '../../stores/people';
import { useSettings } from '../../stores/settings';
import './people.css';

/** The match level a new install starts from (main's default). */
const DEFAULT_MATCH = 0.75;

type Mode = 'rename' | 'merge' | 'split' | 'forget' | null;

function MatchLevel() {
  const level = useSettings((s) => s.settings.voiceMatch ?? DEFAULT_MATCH);
  const update = useSettings((s) => s.update);
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? String(Math.round(level * 100));
  const save = () => {
    const n = Number(shown);
    if (Number.isFinite(n) && n >= 50 && n <= 99) void update({ voiceMatch: n / 100 });
    setDraft(null);
  };
  return (
    <form
      className="field people__level"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label htmlFor="voice-match">Recognise a voice at a match of at least (%)</label>
      <div className="keyform__row">
        <input
          id="voice-match"
          type="number"
          min={50}
          max={99}
          step={1}
          value={shown}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={save}
          aria-describedby="voice-match-help"
        />
        <Button type="submit" size="sm">
          Save
        </Button>
      </div>
      <p id="voice-match-help" className="field__help">
        Higher means fewer wrong names but more voices left unnamed. From 50 to 99.
      </p>
    </form>
  );
}

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Library search narrowed to what this voice said; a hit opens its transcript at that moment. */
function SaidSearch({ voice }: { voice: Voice }) {
  const search = usePeople((s) => s.search);
  const openTranscript = useApp((s) => s.openTranscript);
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const id = useId();
  return (
    <form
      className="field people__search"
      role="search"
      aria-label={`What ${voice.name} said`}
      onSubmit={(e) => {
        e.preventDefault();
        if (query.trim()) void search(voice.id, query.trim()).then(setHits);
      }}
    >
      <label htmlFor={`${id}-q`}>{`Search what ${voice.name} said`}</label>
      <div className="keyform__row">
        <input id={`${id}-q`} type="search" value={query} maxLength={500} onChange={(e) => setQuery(e.target.value)} />
        <Button type="submit" size="sm">
          Search
        </Button>
      </div>
      {hits !== null && (
        <p className="muted" role="status">
          {hits.length === 0 ? 'Nothing found.' : `${hits.length} ${hits.length === 1 ? 'place' : 'places'} found.`}
        </p>
      )}
      {hits && hits.length > 0 && (
        <ul className="people__recordings">
          {hits.map((h) => (
            <li key={`${h.recordingId}:${h.startMs}`}>
              <button type="button" className="linkish" onClick={() => openTranscript(h.recordingId, h.startMs)}>
                {h.title} at {clock(h.startMs)}
              </button>{' '}
              <span className="muted">{h.snippet.map((p) => p.text).join('')}</span>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}

function VoiceCard({ voice, others }: { voice: Voice; others: Voice[] }) {
  const { rename, merge, split, forget } = usePeople();
  const openTranscript = useApp((s) => s.openTranscript);
  const [mode, setMode] = useState<Mode>(null);
  const [name, setName] = useState(voice.name);
  const [target, setTarget] = useState(others[0]?.id ?? '');
  const [recording, setRecording] = useState(voice.recordings[0]?.id ?? '');
  const [unname, setUnname] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const run = async (p: Promise<string | null>) => {
    const why = await p;
    setError(why);
    if (!why) setMode(null);
  };
  const close = () => {
    setMode(null);
    setError(null);
  };
  return (
    <li className="card people__voice" aria-labelledby={`${id}-name`} data-testid="voice">
      <h2 id={`${id}-name`}>{voice.name}</h2>
      <p className="muted">
        Remembered from {voice.prints} {voice.prints === 1 ? 'turn' : 'turns'} ({voice.seconds} s of speech).
      </p>
      <h3 className="people__sub">Speaks in</h3>
      {voice.recordings.length === 0 ? (
        <p className="muted">No recording yet.</p>
      ) : (
        <ul className="people__recordings">
          {voice.recordings.map((r) => (
            <li key={r.id}>
              <button type="button" className="linkish" onClick={() => openTranscript(r.id)} aria-label={`Open ${r.title}`}>
                {r.title}
              </button>{' '}
              <span className="muted">{r.similarity === null ? 'named there' : `recognised, ${matchText(r.similarity)}`}</span>
            </li>
          ))}
        </ul>
      )}
      <SaidSearch voice={voice} />
      <div className="people__actions" role="group" aria-label={`Change ${voice.name}`}>
        <Button size="sm" onClick={() => setMode('rename')} aria-expanded={mode === 'rename'}>
          Rename
        </Button>
        <Button size="sm" onClick={() => setMode('merge')} disabled={others.length === 0} aria-expanded={mode === 'merge'}>
          Merge…
        </Button>
        <Button size="sm" onClick={() => setMode('split')} disabled={voice.recordings.length < 2} aria-expanded={mode === 'split'}>
          Split…
        </Button>
        <Button size="sm" variant="danger" onClick={() => setMode('forget')} aria-expanded={mode === 'forget'}>
          Forget
        </Button>
      </div>
      {mode && (
        <form
          className="people__form"
          aria-label={`${mode === 'rename' ? 'Rename' : mode === 'merge' ? 'Merge' : mode === 'split' ? 'Split' : 'Forget'} ${voice.name}`}
          onSubmit={(e) => {
            e.preventDefault();
            if (mode === 'rename') void run(rename(voice.id, name.trim()));
            if (mode === 'merge') void run(merge(target, voice.id));
            if (mode === 'split') void run(split(voice.id, recording, name.trim()));
            if (mode === 'forget') void run(forget(voice.id, unname));
          }}
          onKeyDown={(e) => e.key === 'Escape' && close()}
        >
          {(mode === 'rename' || mode === 'split') && (
            <div className="field">
              <label htmlFor={`${id}-new`}>{mode === 'rename' ? 'New name' : 'Name of the voice split off'}</label>
              <input id={`${id}-new`} value={name} maxLength={MAX_VOICE_NAME} onChange={(e) => setName(e.target.value)} autoFocus required />
            </div>
          )}
          {mode === 'split' && (
            <div className="field">
              <label htmlFor={`${id}-rec`}>What this recording gave the voice</label>
              <select id={`${id}-rec`} value={recording} onChange={(e) => setRecording(e.target.value)}>
                {voice.recordings.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.title}
                  </option>
                ))}
              </select>
            </div>
          )}
          {mode === 'merge' && (
            <div className="field">
              <label htmlFor={`${id}-into`}>{`Merge ${voice.name} into`}</label>
              <select id={`${id}-into`} value={target} onChange={(e) => setTarget(e.target.value)} autoFocus>
                {others.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          {mode === 'forget' && (
            <>
              <p>
                Forget {voice.name}’s voice? Its voiceprints are deleted from this computer and new recordings will not be recognised as {voice.name}.
                Transcripts keep the names they show, unless you choose otherwise below.
              </p>
              <label className="people__check">
                <input type="checkbox" checked={unname} onChange={(e) => setUnname(e.target.checked)} />
                {`Also replace “${voice.name}” with “Speaker A”, “Speaker B”… in the transcripts that show it`}
              </label>
            </>
          )}
          {error && (
            <p className="field__error" role="alert">
              {error}
            </p>
          )}
          <div className="people__actions">
            <Button type="submit" size="sm" variant={mode === 'forget' ? 'danger' : 'primary'} autoFocus={mode === 'forget'}>
              {mode === 'rename' ? 'Save' : mode === 'merge' ? 'Merge' : mode === 'split' ? 'Split off' : 'Forget voice'}
            </Button>
            <Button type="button" size="sm" onClick={close}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </li>
  );
}

export function PeopleScreen() {
  const voices = usePeople((s) => s.voices);
  const loaded = usePeople((s) => s.loaded);
  const load = usePeople((s) => s.load);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <div className="page people-page">
      <header className="page__header">
        <h1>People</h1>
      </header>
      <p className="page__intro">
        Voices Verbatim remembers. When you name a speaker in a transcript, the voice is remembered, and new recordings show that name when the voice matches.
        Voiceprints are kept only on this computer and are never sent to a transcription service.
      </p>
      <MatchLevel />
      {!loaded ? (
        <p className="muted">Loading…</p>
      ) : voices.length === 0 ? (
        <p className="muted">No voices yet. Name a speaker in a transcript to remember the voice.</p>
      ) : (
        <ul className="people__list" aria-label="Remembered voices">
          {voices.map((v) => (
            <VoiceCard key={v.id} voice={v} others={voices.filter((o) => o.id !== v.id)} />
          ))}
        </ul>
      )}
    </div>
  );
}
