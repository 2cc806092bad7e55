/** Why a model download or install failed, classified, each with a sentence saying what happened and what to try. */

export type ModelErrorKind =
  | 'dns'
  | 'tls'
  | 'proxy'
  | 'network'
  | 'stalled'
  | 'http'
  | 'not_archive'
  | 'checksum'
  /** Upstream published a new archive under the same name, and what arrived matches neither version: the UI offers a fresh download (`models.download`). */
  | 'upstream_changed'
  /** The mirror's file matches no published version: fetching it again cannot help, so the UI offers no retry. */
  | 'mirror_mismatch'
  | 'size'
  | 'disk'
  | 'unsafe_archive'
  | 'incomplete_model'
  | 'unknown_model'
  | 'canceled';

/** Kinds a later attempt may cure on its own (the download retries them with backoff). */
const TRANSIENT = new Set<ModelErrorKind>(['network', 'stalled']);

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    /** For 'http': the status; a 5xx or 429 is worth retrying. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ModelError';
  }

  get transient(): boolean {
    return TRANSIENT.has(this.kind) || (this.kind === 'http' && this.status !== null && (this.status >= 500 || this.status === 429));
  }
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** An HTTP answer that is not the file. */
export function httpError(status: number, url: string): ModelError {
  const host = hostOf(url);
  if (status === 404 || status === 410)
    return new ModelError(
      'http',
      `${host} has no such file (HTTP ${status}). If you set a download mirror, check that it holds this archive under the same name.`,
      status,
    );
  if (status === 401 || status === 403)
    return new ModelError(
      'http',
      `${host} refused the download (HTTP ${status}). A corporate network may block it: try a mirror in Settings → Models, or install from a file.`,
      status,
    );
  if (status === 407)
    return new ModelError(
      'proxy',
      'The proxy asked for credentials (HTTP 407). Put them in HTTPS_PROXY (http://user:password@proxy:port) and restart Verbatim.',
      status,
    );
  // No "Verbatim retries" here: the message is read once retrying is over (see gaveUp).
  if (status === 429) return new ModelError('http', `${host} is limiting downloads (HTTP 429). Try again later.`, status);
  if (status >= 500) return new ModelError('http', `${host} had a server error (HTTP ${status}). Try again later, or use a mirror.`, status);
  return new ModelError('http', `${host} answered HTTP ${status} instead of the file. Check the download mirror in Settings → Models.`, status);
}

/** A Node socket or TLS error, by its code. */
export function classifyNetworkError(err: unknown, url: string, viaProxy: boolean): ModelError {
  if (err instanceof ModelError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? '';
  const host = hostOf(url);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new ModelError(
      'dns',
      `The name ${host} could not be found (DNS). Check that this computer is online; on a network that needs a proxy, set HTTPS_PROXY before starting Verbatim.`,
    );
  if (
    /^(CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_TLS_CERT|ERR_SSL)/.test(code) ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'ERR_TLS_CERT_ALTNAME_INVALID'
  )
    return new ModelError(
      'tls',
      `The certificate of ${host} is not trusted (${code}). On a corporate network, install your company's root certificate in the system's certificate store (Verbatim trusts it), or install the model from a file.`,
    );
  if (viaProxy && (code === 'ECONNREFUSED' || code === 'ERR_PROXY_TUNNEL' || code === 'ECONNRESET'))
    return new ModelError(
      'proxy',
      `The proxy did not pass the download on (${code || 'refused'}). Check HTTPS_PROXY / HTTP_PROXY and NO_PROXY, or try a mirror.`,
    );
  if (code === 'ENOSPC' || code === 'EDQUOT') return diskFull();
  const detail = code || (err instanceof Error ? err.message : String(err));
  return new ModelError('network', `The connection to ${host} failed (${detail}). Check the network, then try again.`);
}

/** The last error of a download that retried and has stopped: the same kind, saying how many tries there were. */
export function gaveUp(e: ModelError, attempts: number): ModelError {
  return new ModelError(e.kind, `${e.message} Verbatim tried ${attempts} times in a row and has stopped.`, e.status);
}

export function diskFull(needed?: number, free?: number): ModelError {
  const figures = needed === undefined ? '' : ` It needs ${formatBytes(needed)}${free !== undefined ? ` and ${formatBytes(free)} is free` : ''}.`;
  return new ModelError(
    'disk',
    `There is not enough free disk space for this model.${figures} Free some space, or delete a model you do not use, then try again.`,
  );
}

export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} GB`;
  if (n >= 1e6) return `${Math.round(n / 1e6)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} kB`;
  return `${n} bytes`;
}
