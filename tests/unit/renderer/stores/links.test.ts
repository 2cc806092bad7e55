// A verbatim:// link opened on the desktop (main's app.openLink event) shows that recording at that moment.
import { describe, expect, it } from 'vitest';
import { parseRecordingLink, recordingLink } from '../../../../src/shared/recording-link';
import { useApp } from '../../../../src/renderer/src/stores/app';
import { connectLinks } from '../../../../src/renderer/src/stores/links';
import { FakeApi } from '../support/fake-api';

describe('verbatim:// links', () => {
  it('parses what the notes and the MCP server write, and nothing else', () => {
    expect(parseRecordingLink(recordingLink('abc-123', 63_500))).toEqual({ recordingId: 'abc-123', ms: 63_000 });
    expect(parseRecordingLink('verbatim://recording/abc-123')).toEqual({ recordingId: 'abc-123', ms: null });
    for (const bad of [
      'verbatim://recording/',
      'verbatim://recording/../x?t=1',
      'https://recording/abc',
      'verbatim://recording/abc?t=-1',
      'verbatim://recording/a b',
    ])
      expect(parseRecordingLink(bad), bad).toBeNull();
  });

  it('opens the recording at the moment the link names', () => {
    const api = new FakeApi();
    const off = connectLinks(api);
    api.emit('app.openLink', { recordingId: 'rec-1', ms: 63_000 });
    expect(useApp.getState().screen).toBe('transcript');
    expect(useApp.getState().open).toMatchObject({ id: 'rec-1', atMs: 63_000 });
    off();
    expect(api.listenerCount('app.openLink')).toBe(0);
  });
});
