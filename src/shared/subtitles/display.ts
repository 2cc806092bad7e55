/**
 * A cue's text as a viewer reads it: markup tags (<i>, <v Name>) and ASS
 * override tags ({\an8}, {\i1}) hidden, HTML character references decoded
 * as the WebVTT cue text tokenizer does (HTML's own rules: every named
 * reference, numeric ones, the legacy forms without a semicolon), from the
 * `entities` package's table rather than a list of our own. The cue keeps the
 * file's own text, so an export writes back what was imported; this is for
 * the screen, words and search.
 */
import { decodeHTML } from 'entities/decode';

const TAG = /<[^>]*>/g;
const ASS_TAG = /\{\\[^}]*\}/g;

export function decodeEntities(text: string): string {
  return text.includes('&') ? decodeHTML(text) : text;
}

/** Whether the text holds an HTML character reference a viewer would see decoded. */
export function hasEntities(text: string): boolean {
  return text.includes('&') && decodeHTML(text) !== text;
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
