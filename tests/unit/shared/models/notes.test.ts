import { describe, expect, it } from 'vitest';
import { CATALOG } from '../../../../src/shared/models';

/** Words that speak of how the catalog was put together (the team, its issues, what it did not check) rather than of what the user gets. */
const TEAM_TALK = /\bissue\b|re-measured|re-checked|not checked|not confirmed|release page|size approximate|sum of its files|\bwe\b|\bour\b/i;

describe('the notes a user reads under each model', () => {
  it.each(CATALOG.map((e) => [e.id, e.note] as const))('%s says what the user gets, not how the team worked', (_id, note) => {
    expect(note).not.toMatch(TEAM_TALK);
  });
});
