// Types for scripts/host-flags.mjs (imported by the tests' host and a bench helper).
/** The Node flags host mode runs with. */
export const HOST_NODE_FLAGS: readonly string[];
