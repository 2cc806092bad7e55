/**
 * Streaming v3 (`/v3/ws`, `/v3/token`). Owned by the streaming work (issue 4);
 * this placeholder only fixes the registration signature.
 */
import type { Server } from 'node:http';
import type { EngineContext } from '../server';
import type { Router } from './router';

export function registerStreaming(_ctx: EngineContext, _server: Server, _router: Router): void {}
