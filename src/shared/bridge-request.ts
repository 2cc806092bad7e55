/** One host-mode bridge request read from its JSON text: the envelope only (main's router checks the input with its channel's schema). */
import type { z } from 'zod';
import { bridgeRequestSchema } from './ipc';

export type DecodedRequest =
  { ok: false; reason: 'Messages must be JSON' | 'Malformed bridge message' } | { ok: true; id: number; channel: string; input: unknown };

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
  return { ok: true, id, channel, input };
}

/** The first three issues of a failed parse, each with its path: what a `bad_request` answer says. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'input'}: ${issue.message}`)
    .join('; ');
}
