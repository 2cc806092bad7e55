/** The cloud API key: masked entry, verify, remove. The key goes to main once and never comes back. */
import { useState } from 'react';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { formatDateTime } from '../../components/format';
import { useKeys } from '../../stores/keys';
import { useSettings } from '../../stores/settings';

function fixFor(code: string | null): string {
  switch (code) {
    case 'invalid_key':
      return 'Copy the key again from your AssemblyAI dashboard (API keys), paste it here and save. Check that it belongs to the region you chose.';
    case 'network':
      return 'Check the internet connection, then press “Verify again”.';
    case 'bad_request':
      return 'An API key is a long string of letters and digits; paste it without spaces or quotes.';
    case 'rate_limited':
      return 'Wait a minute, then press “Verify again”.';
    case 'conflict':
      return 'Paste the key above and press “Save and verify”: Verbatim then keeps it for this address.';
    default:
      return 'Try again; if it keeps failing, switch the region to Local to keep working offline.';
  }
}

export function KeySection() {
  const { status, busy, error } = useKeys();
  const setKey = useKeys((s) => s.set);
  const verify = useKeys((s) => s.verify);
  const remove = useKeys((s) => s.remove);
  const clearError = useKeys((s) => s.clearError);
  const region = useSettings((s) => s.settings.region);
  const [value, setValue] = useState('');
  const [show, setShow] = useState(false);
  const cloudRegion = region === 'us' || region === 'eu' || region === 'custom' ? region : undefined;

  const save = async () => {
    if (await setKey(value.trim(), cloudRegion)) setValue('');
  };
  const shownError = error ?? (status?.lastError ? { code: status.lastError.code, message: status.lastError.message } : null);

  return (
    <section className="card" aria-labelledby="key-title" data-testid="key-section">
      <div className="card__head">
        <h2 id="key-title">API key</h2>
        {status?.present ? (
          !status.matchesService && status.source === 'vault' && cloudRegion ? (
            <Badge tone="warn">For another address</Badge>
          ) : status.verifiedAt && !status.lastError ? (
            <Badge tone="ok">Verified</Badge>
          ) : (
            <Badge tone="warn">Not verified</Badge>
          )
        ) : (
          <Badge tone="neutral">No key</Badge>
        )}
      </div>
      <p className="field__help">
        {status?.present
          ? `A key ending in ${status.masked ?? '…'} is stored${status.source === 'env' ? ' in the ASSEMBLYAI_API_KEY environment variable' : ', encrypted on this computer'}.${status.verifiedAt ? ` Last verified ${formatDateTime(status.verifiedAt)}.` : ''}`
          : 'Needed for the US and EU cloud (and for a custom service that asks for one). Without a key, Verbatim transcribes with its local engine on this computer.'}
      </p>
      {status?.present && status.source === 'vault' && status.boundTo && (
        <p className="field__help" data-testid="key-bound">
          Verbatim sends this key only to {status.boundTo}, the service it was entered for.
        </p>
      )}
      {status?.present && !status.matchesService && cloudRegion && (
        <p className="banner banner--warn" role="status" data-testid="key-elsewhere">
          {status.source === 'vault'
            ? `This key was entered for ${status.boundTo ?? 'AssemblyAI’s US and EU services'}, not for the service address now in Settings. To use it there, enter the key again below; until then Verbatim does not send it.`
            : 'Set a service address first.'}
        </p>
      )}
      {status && !status.canStore && (
        <p className="banner banner--warn">
          This computer has no keyring to encrypt the key with, so it cannot be saved. Set ASSEMBLYAI_API_KEY before starting Verbatim instead.
        </p>
      )}
      {shownError && (
        <div className="banner banner--error" role="alert" data-testid="key-error">
          <p>
            <strong>{shownError.code === 'invalid_key' ? 'The service says this key is invalid.' : 'The key could not be checked.'}</strong>{' '}
            {shownError.message}
          </p>
          {shownError.code !== 'invalid_key' && <p>{fixFor(shownError.code)}</p>}
        </div>
      )}
      {status?.source !== 'env' && (
        <form
          className="keyform"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <div className="field">
            <label htmlFor="api-key">{status?.present ? 'Replace the key' : 'Your AssemblyAI API key'}</label>
            <div className="keyform__row">
              <input
                id="api-key"
                type={show ? 'text' : 'password'}
                autoComplete="off"
                spellCheck={false}
                placeholder="Paste the key"
                value={value}
                onChange={(e) => {
                  setValue(e.target.value);
                  if (error) clearError();
                }}
                aria-invalid={error?.code === 'invalid_key' || undefined}
              />
              <Button size="sm" variant="ghost" onClick={() => setShow(!show)} aria-pressed={show}>
                {show ? 'Hide' : 'Show'}
              </Button>
              <Button type="submit" variant="primary" busy={busy === 'set'} disabled={value.trim().length < 8 || status?.canStore === false}>
                Save and verify
              </Button>
            </div>
          </div>
        </form>
      )}
      {status?.present && (
        <div className="row">
          <Button icon="retry" busy={busy === 'verify'} onClick={() => void verify()}>
            Verify again
          </Button>
          {status.source !== 'env' && (
            <Button variant="danger" icon="trash" busy={busy === 'remove'} onClick={() => void remove()}>
              Remove key
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
