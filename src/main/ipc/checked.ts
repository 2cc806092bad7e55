/** Answers already checked against their channel's output schema off the event loop (the library's worker thread): the router passes them on as they are. */
const checked = new WeakSet<object>();

/** Marks `value` (an object the worker validated with the channel's own output schema) so the router does not check it again. */
export function checkedOutput<T extends object>(value: T): T {
  checked.add(value);
  return value;
}

export function isCheckedOutput(value: unknown): boolean {
  return typeof value === 'object' && value !== null && checked.has(value);
}

/**
 * An answer checked and already written as UTF-8 JSON by the worker, for a
 * transport that sends JSON text (host mode's bridge, HandlerContext.jsonText):
 * 200,000 cues take ~250 ms to stringify, which the event loop never does.
 */
export class CheckedJson {
  constructor(readonly bytes: Uint8Array) {}
}

export function checkedJson(bytes: Uint8Array): CheckedJson {
  return checkedOutput(new CheckedJson(bytes));
}
