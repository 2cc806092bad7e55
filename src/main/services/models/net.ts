/**
 * The download's connection: proxies from the environment (HTTPS_PROXY,
 * HTTP_PROXY, NO_PROXY, through Node's own agent support), the operating
 * system's certificate store trusted beside Node's bundled roots (so a
 * corporate CA works), redirects followed (GitHub's release links redirect),
 * and a ranged GET; a redirect never leads from a public host into the
 * local network.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { isPrivateAddress, isPrivateName, publicOnlyLookup } from './addresses';
import { classifyNetworkError, httpError, ModelError } from './errors';

type Env = Record<string, string | undefined>;

let systemCa: string[] | null | undefined;

/** Node's bundled roots plus the OS store's (Node ≥ 22.15 / 23.5); null when the runtime cannot read the store. */
export function trustedCertificates(): string[] | null {
  if (systemCa !== undefined) return systemCa;
  const get = (tls as unknown as { getCACertificates?: (kind: string) => string[] }).getCACertificates;
  try {
    systemCa = get ? [...new Set([...get('default'), ...get('system')])] : null;
  } catch {
    systemCa = null;
  }
  return systemCa;
}

/** Whether `url` goes through a proxy under this environment (NO_PROXY honoured). */
export function proxyFor(url: string, env: Env): string | null {
  const u = new URL(url);
  const proxy = u.protocol === 'https:' ? (env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy) : (env.HTTP_PROXY ?? env.http_proxy);
  if (!proxy) return null;
  const noProxy = (env.NO_PROXY ?? env.no_proxy ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const host = u.hostname.toLowerCase();
  for (const rule of noProxy) {
    if (rule === '*') return null;
    const bare = rule.replace(/^\*?\./, '').replace(/:\d+$/, '');
    if (host === bare || host.endsWith(`.${bare}`)) return null;
  }
  return proxy;
}

export class Connection {
  private readonly httpAgent: http.Agent;
  private httpsAgentMade: https.Agent | undefined;

  constructor(private readonly env: Env = process.env) {
    // proxyEnv: Node's agents tunnel through the environment's proxy (Node ≥ 24.5; older runtimes ignore it).
    this.httpAgent = new http.Agent(this.agentOptions());
  }

  private agentOptions(): http.AgentOptions {
    return { keepAlive: true, proxyEnv: this.env } as http.AgentOptions;
  }

  /** Made on the first HTTPS download: reading the system's certificate store costs tens of ms, not worth paying at every start (issue 29). */
  private get httpsAgent(): https.Agent {
    if (!this.httpsAgentMade) {
      const ca = trustedCertificates();
      this.httpsAgentMade = new https.Agent({ ...this.agentOptions(), ...(ca ? { ca } : {}) });
    }
    return this.httpsAgentMade;
  }

  /**
   * GET `url` from byte `from`, following up to 5 redirects. Resolves with the
   * response once its status is 200 or 206; other statuses become a ModelError
   * (416 is answered as is: the caller decides). A redirect may lead only to
   * http(s), and to a loopback or private host only when the first host was
   * one itself (a mirror on the LAN): otherwise a hostile mirror could make
   * the app send requests to services inside the network.
   */
  async get(url: string, from: number, signal: AbortSignal): Promise<{ res: IncomingMessage; url: string }> {
    let current = url;
    let insideAllowed = true;
    for (let hop = 0; hop < 6; hop++) {
      const res = await this.request(current, from, signal, hop === 0 || insideAllowed);
      if (hop === 0) {
        // The mirror's own address: the socket's peer, or (through a proxy, whose address that is) its name.
        const peer = proxyFor(current, this.env) === null ? res.socket?.remoteAddress : undefined;
        insideAllowed = peer ? isPrivateAddress(peer) : isPrivateName(new URL(current).hostname);
      }
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
        res.resume();
        let next: URL;
        try {
          next = new URL(res.headers.location, current);
        } catch {
          throw new ModelError('http', `${new URL(current).host} redirected the download to an address that is not valid.`);
        }
        if (next.protocol !== 'https:' && next.protocol !== 'http:')
          throw new ModelError('http', `${new URL(current).host} redirected the download to ${next.protocol} address; Verbatim downloads only over http(s).`);
        if (!insideAllowed && isPrivateName(next.hostname)) throw privateRedirect(current, next.host);
        current = next.toString();
        continue;
      }
      if (status === 200 || status === 206 || status === 416) return { res, url: current };
      res.resume();
      throw httpError(status, current);
    }
    throw new ModelError('http', `The download of ${url} was redirected too many times. Try a mirror in Settings → Models.`);
  }

  private request(url: string, from: number, signal: AbortSignal, insideAllowed: boolean): Promise<IncomingMessage> {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:')
      return Promise.reject(new ModelError('http', `Verbatim downloads only over http(s), not ${u.protocol}`));
    const viaProxy = proxyFor(url, this.env) !== null;
    const mod = u.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = mod.get(
        u,
        {
          agent: u.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
          headers: { 'user-agent': 'Verbatim model manager', 'accept-encoding': 'identity', ...(from > 0 ? { range: `bytes=${from}-` } : {}) },
          signal,
          // After a redirect from a public host: a name that resolves inside the network is refused too (a proxy resolves names itself).
          ...(insideAllowed || viaProxy ? {} : { lookup: publicOnlyLookup }),
        },
        resolve,
      );
      req.on('error', (err) => {
        if (signal.aborted) reject(new ModelError('canceled', 'The download was stopped.'));
        else if ((err as NodeJS.ErrnoException).code === 'ERR_PRIVATE_REDIRECT') reject(privateRedirect(url, u.host));
        else reject(classifyNetworkError(err, url, viaProxy));
      });
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgentMade?.destroy();
  }
}

function privateRedirect(from: string, to: string): ModelError {
  return new ModelError(
    'http',
    `${new URL(from).host} redirected the download to ${to}, an address on this computer or its local network, so Verbatim did not follow it. Check the download mirror in Settings → Models.`,
  );
}
