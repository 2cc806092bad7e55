/**
 * zod's settings for main, imported before any module that builds a schema
 * (first in core.ts, and first in host mode's staged load): zod reads
 * `jitless` when a schema is made, not when it parses, so setting it in
 * core.ts's body, after its imports had built every contract schema, left
 * them all compiling.
 *
 * jitless: zod checks every IPC payload without generating code (no
 * `new Function`). Its compiled parsers cost ~0.5 ms of compiling per object
 * schema on first use — tens of ms over a window's first calls — more than
 * they save on payloads this size, and main then evaluates no code it built at
 * run time. (The library worker, which checks the 10 MB bridge messages,
 * keeps them.)
 */
import { z } from 'zod';

z.config({ jitless: true });
