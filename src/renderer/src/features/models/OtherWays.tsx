/** The Models screen's other ways to get a model: a download mirror, and install from a file (its result shown beside its button). */
import { useRef, useState } from 'react';
import { Button } from '../../components/Button';
import { useModels } from '../../stores/models';
import { useSettings } from '../../stores/settings';

/** What "Install from a file" takes: sherpa-onnx archives, GGUF chat models, and the single-file ONNX speaker models. */
export const INSTALL_ACCEPT = '.bz2,.gguf,.onnx';

function MirrorField() {
  const models = useSettings((s) => s.settings.models);
  const update = useSettings((s) => s.update);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="field">
      <label htmlFor="models-mirror">Download address (mirror)</label>
      <input
        id="models-mirror"
        type="url"
        value={draft ?? models.mirror}
        placeholder="https://mirror.example.org/sherpa-onnx"
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby="models-mirror-note"
        onChange={(e) => setDraft(e.target.value)}
        onBlur={async () => {
          if (draft === null) return;
          const v = draft.trim();
          if (v && !/^https?:\/\/\S+$/.test(v)) return setError('That is not a web address; it must start with https:// or http://');
          const ok = await update({ models: { ...models, mirror: v } });
          setError(ok === false ? 'Verbatim could not save this address. Check it and try again.' : null);
          if (ok !== false) setDraft(null);
        }}
      />
      <p id="models-mirror-note" className={error ? 'field__error' : 'field__help'} role={error ? 'alert' : undefined}>
        {error ??
          'Empty: the publishers’ own downloads. For a corporate network, a folder on your own server holding the files under their usual names. Proxies come from HTTPS_PROXY / HTTP_PROXY; your system’s certificates are trusted.'}
      </p>
    </div>
  );
}

function InstallFromFile() {
  const installing = useModels((s) => (s.installing?.for === null ? s.installing : null));
  const result = useModels((s) => (s.installResult?.for === null ? s.installResult : null));
  const installFile = useModels((s) => s.installFile);
  const fileRef = useRef<HTMLInputElement>(null);
  return (
    <div className="field">
      <span className="field__label" id="install-file-label">
        Install from a file
      </span>
      <p className="field__help" id="install-file-help">
        For a computer that cannot download: pick the file as it was downloaded elsewhere (an archive such as sherpa-onnx-zipformer-small-en-2023-06-26.tar.bz2,
        a .gguf chat model, or an .onnx speaker model). It is checked and installed the same way.
      </p>
      <input
        ref={fileRef}
        type="file"
        accept={INSTALL_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="install-file-input"
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void installFile(f);
        }}
      />
      <div className="row">
        <Button
          onClick={() => fileRef.current?.click()}
          busy={installing !== null}
          aria-describedby="install-file-help"
          aria-labelledby="install-file-label install-file-button"
          id="install-file-button"
        >
          Choose a file…
        </Button>
        {installing && (
          <span className="muted">
            Installing {installing.name}
            {installing.percent !== null ? ` (${Math.round(installing.percent)}% sent)` : '…'}
          </span>
        )}
      </div>
      {/* Right under the button: the result is read where the action was taken. */}
      <p
        className={result?.ok === false ? 'field__error' : 'field__help install-result'}
        role={result?.ok === false ? 'alert' : 'status'}
        data-testid="install-result"
      >
        {result?.text ?? ''}
      </p>
    </div>
  );
}

export function OtherWays() {
  return (
    <section className="card" aria-labelledby="models-other-title">
      <h2 id="models-other-title">Other ways to get a model</h2>
      <MirrorField />
      <InstallFromFile />
    </section>
  );
}
