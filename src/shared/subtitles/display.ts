/**
 * A cue's text as a viewer reads it: markup tags (<i>, <v Name>) and ASS
 * override tags ({\an8}, {\i1}) hidden, HTML entities (&amp; &lt; &gt; &nbsp;
 * and numeric ones) decoded. The cue keeps the file's own text, so an export
 * writes back what was imported; this is for the screen, words and search.
 */

const TAG = /<[^>]*>/g;
const ASS_TAG = /\{\\[^}]*\}/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', quot: '"', apos: "'" };
const ENTITY = /&(?:(amp|lt|gt|nbsp|quot|apos)|#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6}));/g;

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (m, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name) return NAMED[name]!;
    const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : m;
  });
}

/** Whether the text holds an HTML entity a viewer would see decoded. */
export function hasEntities(text: string): boolean {
  return text.includes('&') && new RegExp(ENTITY.source).test(text);
}

/** Whether the text holds an ASS override tag such as {\an8}. */
export function hasAssTags(text: string): boolean {
  return text.includes('{\\') && new RegExp(ASS_TAG.source).test(text);
}

/** Tags (markup and ASS) removed, entities decoded; line breaks kept. */
export function cueDisplayText(text: string): string {
  if (!text.includes('<') && !text.includes('{') && !text.includes('&')) return text;
  return decodeEntities(text.replace(TAG, '').replace(ASS_TAG, ''));
}
