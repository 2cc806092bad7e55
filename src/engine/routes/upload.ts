import type { EngineContext } from '../server';
import type { Router } from './router';

export function registerUpload(_ctx: EngineContext, _router: Router): void {}
