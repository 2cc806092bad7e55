/**
 * subtitles.open's answer for a transport that sends JSON text (host mode's
 * bridge, HandlerContext.jsonText): the document written as UTF-8 JSON and
 * checked with its output schema on the library's worker. Kept for this one
 * channel: 200,000 cues as columns still take ~50 ms (idle) to 200 ms (loaded)
 * each to copy in from the worker, check and stringify on the event loop,
 * over its 100 ms bound; as bytes they are handed over whole. Every other
 * answer is checked by the router and sent as the transport sends it.
 */
export class SubtitleDocJson {
  constructor(readonly bytes: Uint8Array) {}
}
