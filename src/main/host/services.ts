/**
 * Host mode's service start: the services (given, promised, or loaded by a
 * function on first need) together with what only they need (the bridge's
 * decoder, so the server module imports nothing heavy itself: issue 29; the
 * bridge loads its socket server itself, bridge.ts).
 * They start once; a failure leaves them down for good and the caller hears why.
 */
import type * as BridgeRequest from '../../shared/bridge-request';
import type { Core } from '../core';

/** The services, their promise, or a function that starts them (called once, on first need). */
export type CoreSource = Core | Promise<Core> | (() => Promise<Core>);

/** What the services bring when they are up. */
export interface ServicesUp {
  core: Core;
  decodeBridgeRequest: typeof BridgeRequest.decodeBridgeRequest;
}

export class ServiceStart {
  private up: Promise<boolean> | null = null;
  private stopped = false;
  private services: Core | null = null;

  /** `onUp`: called once, when the services are up (not after stop()). */
  constructor(
    private readonly source: CoreSource,
    private readonly onUp: (up: ServicesUp) => void,
  ) {}

  /** Whether the services load only when first needed (a function was given). */
  get onDemand(): boolean {
    return typeof this.source === 'function';
  }

  /** The services; only where they are up (a bridge socket, a token route after start() said so). */
  get core(): Core {
    if (!this.services) throw new Error('host: the services are not up yet');
    return this.services;
  }

  /** Starts the services once (later calls answer the same promise): whether they are up. */
  start(): Promise<boolean> {
    this.up ??= Promise.all([typeof this.source === 'function' ? this.source() : this.source, import('../../shared/bridge-request')])
      .then(([core, bridgeRequest]) => {
        if (this.stopped) return false;
        this.onUp({ core, decodeBridgeRequest: bridgeRequest.decodeBridgeRequest });
        this.services = core;
        return true;
      })
      .catch(() => false);
    return this.up;
  }

  /** Shutting down: services that come up later are not wired in. */
  stop(): void {
    this.stopped = true;
  }
}
