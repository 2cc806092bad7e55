/**
 * Schemas made on first use. Host mode's start (and the engine's, and each window's) loads every module
 * of the IPC contract and of the service's wire format, but answers its first requests with a few dozen of
 * their schemas: made as the modules loaded, they were ~4,300 zod schemas (~25 ms of CPU) before the first
 * answer (issue 52: cold start). A module of schemas puts them in a `build()` and exports each as a
 * `z.lazy` of the one `build()` makes; the first parse of any of them makes them all, once.
 *
 * A z.lazy parses, infers and composes as its schema does (an optional or defaulted one stays so inside an
 * object). What it lacks are the schema's own methods (`.shape`, `.extend()`, `.options`…): call
 * `.unwrap()` first, which makes the module's schemas if they are not made yet.
 */
export function lazySchemas<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}
