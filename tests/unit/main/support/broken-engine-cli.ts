/** An engine that cannot start: says why on stderr and exits 3 (EngineManager tests). */
process.stderr.write('verbatim-engine could not start: pocketsphinx model missing\n');
process.exit(3);
