/**
 * The LLM gateway (`/v1/...`). Owned by the gateway work (issue 4); this
 * placeholder only fixes the registration signature.
 */
import type { EngineContext } from '../server';
import type { Router } from './router';

export function registerGateway(_ctx: EngineContext, _router: Router): void {}
