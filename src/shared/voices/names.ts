/**
 * The one rule for a remembered voice's name, used wherever a name comes in: People (name a speaker, rename,
 * split), a restored backup's voices, and the local engine's known voices for live captions. A name is 1–80
 * characters once trimmed, with no control characters, no lone surrogate halves and no bidirectional
 * overrides (they would reorder the text around the name); two names are the same voice when they are equal
 * under Unicode case folding ("Ökan" and "ökan", "STRASSE" and "straße"), which SQLite's NOCASE (ASCII only)
 * is not.
 */
export const MAX_VOICE_NAME = 80;

/** Control characters, lone surrogate halves, and the bidirectional embeddings, overrides and isolates. */
const FORBIDDEN = /[\p{Cc}\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

/** What is wrong with a voice's name, in words for the user, or null when it is fine. `name` is taken as given (trim first). */
export function checkVoiceName(name: string): string | null {
  if (name.trim() !== name) return 'A name does not start or end with spaces.';
  if (name.length === 0) return 'Type a name.';
  if (name.length > MAX_VOICE_NAME) return `A name is at most ${MAX_VOICE_NAME} characters (this one has ${name.length}).`;
  if (FORBIDDEN.test(name)) return 'A name cannot hold control characters or text-direction marks: type it again without them.';
  return null;
}

/** The key two names are compared by: the same key is the same voice (Unicode case folding, composed form). */
export function voiceNameKey(name: string): string {
  // Upper then lower case folds what lower case alone does not (ß and SS, ς and σ, the long s); NFC first and
  // last so a composed and a decomposed Ö are one letter.
  return name.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}
