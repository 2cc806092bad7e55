// The Node flags host mode runs with: `npm run serve` (scripts/serve.mjs), the tests' host (tests/e2e/host.ts)
// and bench/_startup-ab.ts (a variant's own flags go after these; V8 takes the last of a flag given twice).
//
// No --enable-source-maps: it read and parsed the map of every file host mode loads, as it loaded it (~7 ms of a
// cold start); host mode maps a trace's frames to src/… itself, reading a map when a trace first needs it
// (src/main/host/stack-maps.ts).
// --min-semi-space-size: a 32 MB young generation from the start, so loading the services (modules and schemas;
// the heap reaches ~27 MB) runs without a scavenge: with the default there were a dozen (~20 ms of CPU before
// the page is answered: cold start), with 16 MB one of ~7 ms. The resident size 4 s after the start is no larger
// (~102 MB, against ~107 MB with 16).
export const HOST_NODE_FLAGS = Object.freeze(['--min-semi-space-size=32']);
