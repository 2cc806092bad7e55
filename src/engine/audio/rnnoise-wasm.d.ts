/** The synchronous build of @jitsi/rnnoise-wasm (its WebAssembly inlined); the package ships no types. */
declare module '@jitsi/rnnoise-wasm/dist/rnnoise-sync.js' {
  const create: (opts?: object) => Promise<unknown>;
  export default create;
}
