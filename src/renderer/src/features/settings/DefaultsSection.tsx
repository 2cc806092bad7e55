/** Options every new job starts with: speech models, language, formatting, speakers, PII redaction. */
import type { TranscriptionOptions } from '../../../../shared/jobs';
import { DEFAULT_SPEECH_MODELS } from '../../../../shared/defaults';
import { languageLabels, piiPolicyLabels, type PiiPolicy } from '../../components/labels';
import { serviceModelChoices } from '../../lib/serviceModels';
import { Switch } from '../../components/Switch';
import { useModels } from '../../stores/models';
import { useSettings } from '../../stores/settings';

/** The service's pre-recorded models (one list for every picker); a retired one is not offered. */
const models = serviceModelChoices('prerecorded');

const piiPolicies = Object.keys(piiPolicyLabels) as PiiPolicy[];

export function DefaultsSection() {
  const settings = useSettings((s) => s.settings);
  const update = useSettings((s) => s.update);
  const d = settings.transcriptionDefaults;
  const local = settings.region === 'local';
  const set = (patch: TranscriptionOptions) => void update({ transcriptionDefaults: { ...d, ...patch } });
  const chosen = d.speechModels ?? [...DEFAULT_SPEECH_MODELS];
  const policies = d.redactPiiPolicies ?? [];
  // On this computer the model for files (Settings → Models) transcribes; PocketSphinx, built in, knows English only.
  const localModel = useModels((s) => s.list?.models.find((r) => r.entry.id === settings.models.files)?.entry) ?? null;
  const localName = localModel?.name ?? 'PocketSphinx (built in)';
  const localLanguages = localModel?.languages ?? ['en'];
  const language = (d.languageCode ?? 'en_us').split('_')[0]!;

  return (
    <section className="card" aria-labelledby="defaults-title">
      <h2 id="defaults-title">New transcriptions</h2>
      <fieldset className="fieldset">
        <legend>Speech models, in order of preference</legend>
        {local && (
          <p className="field__help" data-testid="local-model-note">
            On this computer, files are transcribed with {localName}, the model for files under Models; these choices apply to the US, EU and custom services.
          </p>
        )}
        {models.map((m) => (
          <label key={m.id} className="check">
            <input
              type="checkbox"
              checked={chosen.includes(m.id)}
              // The local engine has its own model: choosing here would look like it mattered.
              disabled={local || (chosen.length === 1 && chosen.includes(m.id))}
              onChange={(e) => set({ speechModels: e.target.checked ? [...chosen, m.id] : chosen.filter((x) => x !== m.id) })}
            />
            <span>
              {m.label} <span className="muted">{m.help}</span>
              {chosen.includes(m.id) && chosen.length > 1 && <span className="muted"> · choice {chosen.indexOf(m.id) + 1}</span>}
            </span>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="language">Language</label>
        <select id="language" value={d.languageCode ?? 'en_us'} onChange={(e) => set({ languageCode: e.target.value })}>
          {languageLabels.map(([code, label]) => (
            <option key={code} value={code}>
              {label}
            </option>
          ))}
        </select>
        {local && !localLanguages.includes(language) && (
          <p className="field__error">{localName} does not transcribe this language. Choose a model for it under Models, or switch the region to US or EU.</p>
        )}
      </div>
      <div className="grid2">
        <Switch label="Punctuation" checked={d.punctuate ?? true} onChange={(v) => set({ punctuate: v })} />
        <Switch label="Formatting (numbers, capitals)" checked={d.formatText ?? true} onChange={(v) => set({ formatText: v })} />
        <Switch label="Keep filler words (um, uh)" checked={d.disfluencies ?? false} onChange={(v) => set({ disfluencies: v })} />
        <Switch label="Mask profanity" checked={d.filterProfanity ?? false} onChange={(v) => set({ filterProfanity: v })} />
      </div>
      <Switch
        label="Tell speakers apart"
        checked={d.speakerLabels ?? false}
        onChange={(v) => set({ speakerLabels: v })}
        help={
          local
            ? 'Labels each paragraph with Speaker A, B… which you can rename. The local engine needs a segmentation and a speaker-embedding model (Models).'
            : 'Labels each paragraph with Speaker A, B… which you can rename.'
        }
      />
      <Switch
        label="Redact personal information"
        checked={d.redactPii ?? false}
        onChange={(v) => set({ redactPii: v, redactPiiPolicies: v && policies.length === 0 ? ['person_name', 'phone_number', 'email_address'] : policies })}
        help="Replaces what you pick below in the transcript."
      />
      {d.redactPii && (
        <div className="subsection">
          <fieldset className="fieldset">
            <legend>What to redact</legend>
            <div className="grid2">
              {piiPolicies.map((p) => (
                <label key={p} className="check">
                  <input
                    type="checkbox"
                    checked={policies.includes(p)}
                    onChange={(e) => set({ redactPiiPolicies: e.target.checked ? [...policies, p] : policies.filter((x) => x !== p) })}
                  />
                  <span>{piiPolicyLabels[p]}</span>
                </label>
              ))}
            </div>
          </fieldset>
          {policies.length === 0 && <p className="field__error">Pick at least one kind of information, or turn redaction off.</p>}
          <div className="field">
            <label htmlFor="pii-sub">Replace with</label>
            <select id="pii-sub" value={d.redactPiiSub ?? 'hash'} onChange={(e) => set({ redactPiiSub: e.target.value as 'hash' | 'entity_name' })}>
              <option value="hash">#### (hashes)</option>
              <option value="entity_name">[PERSON_NAME] (the kind)</option>
            </select>
          </div>
          <Switch label="Also make a beeped copy of the audio" checked={d.redactPiiAudio ?? false} onChange={(v) => set({ redactPiiAudio: v })} />
        </div>
      )}
    </section>
  );
}
