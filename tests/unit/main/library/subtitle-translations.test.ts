/**
 * A translated track's bilingual cues (subtitle-translations.ts bilingualCues): the source's line as it reads now
 * above each translation, matched by timing; the text the cue was translated from when the source is gone or was
 * retimed; refused for an item that is not a translation.
 */
import { describe, expect, it } from 'vitest';
import { bilingualCues, translationStateOf } from '../../../../src/main/services/library/subtitle-translations';
import { AppError } from '../../../../src/shared/errors';

const options = { translation: { from: 'src', language: 'French', model: 'm', sources: { '0-1000': 'Hello there.', '1000-2000': 'Good bye.' } } };
const track = [
  { start: 0, end: 1000, text: 'Bonjour.' },
  { start: 1000, end: 2000, text: 'Au revoir.' },
];

describe('bilingual cues of a translated track', () => {
  it('puts the source line as it reads now above the translation, by timing', () => {
    const source = [
      { start: 0, end: 1000, text: 'Hello\nthere.' },
      { start: 1000, end: 2000, text: 'Goodbye now.' },
    ];
    expect(bilingualCues(options, track, () => source).map((c) => c.text)).toEqual(['Hello\nthere.\nBonjour.', 'Goodbye now.\nAu revoir.']);
  });

  it('uses the text each cue was translated from when the source is gone or was retimed', () => {
    const gone = () => {
      throw new AppError('not_found', 'This recording is no longer in the library.');
    };
    expect(bilingualCues(options, track, gone).map((c) => c.text)).toEqual(['Hello there.\nBonjour.', 'Good bye.\nAu revoir.']);
    expect(bilingualCues(options, track, () => [{ start: 0, end: 900, text: 'Retimed.' }]).map((c) => c.text)).toEqual([
      'Hello there.\nBonjour.',
      'Good bye.\nAu revoir.',
    ]);
  });

  it('refuses an item that is not a translation, and reads no state from broken options', () => {
    expect(() => bilingualCues({}, track, () => [])).toThrow(/not a translation/);
    expect(translationStateOf({ translation: { from: 'x' } })).toBeNull();
    expect(translationStateOf(options)).toMatchObject({ from: 'src', language: 'French' });
  });
});
