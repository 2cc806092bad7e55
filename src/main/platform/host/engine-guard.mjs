// Loaded into the engine process by host mode (--import): when the app that
// forked it dies, its IPC channel closes, and the engine must not outlive it.
if (typeof process.send === 'function') {
  process.on('disconnect', () => process.exit(0));
}
