/** One host-mode bridge request read from its JSON text: the envelope, then its channel's input checked with the contract's schema (main's router does the same; the library's worker does it for big messages, off main's event loop). */
import type { z } from 'zod';
import { bridgeRequestSchema, channels, isChannel } from './ipc';

/** The input checked against its channel's schema: `input` is then the schema's output, or the issues are named. */
export type InputCheck = { ok: true } | { ok: false; message: string };

export type DecodedRequest =
  | { ok: false; reason: 'Messages must be JSON' | 'Malformed bridge message' }
  /** `check` is null for a channel not in the contract (the router refuses it by name). */
  | { ok: true; id: number; channel: string; input: unknown; check: InputCheck | null };

export function decodeBridgeRequest(text: string): DecodedRequest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'Messages must be JSON' };
  }
  const req = bridgeRequestSchema.safeParse(raw);
  if (!req.success) return { ok: false, reason: 'Malformed bridge message' };
  const { id, channel, input } = req.data;
  if (!isChannel(channel)) return { ok: true, id, channel, input: undefined, check: null };
  const parsed = channels[channel].input.safeParse(input);
  if (!parsed.success) return { ok: true, id, channel, input: undefined, check: { ok: false, message: describeIssues(parsed.error) } };
  return { ok: true, id, channel, input: parsed.data, check: { ok: true } };
}

/** The first three issues of a failed parse, each with its path: what a `bad_request` answer says. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'input'}: ${issue.message}`)
    .join('; ');
}
