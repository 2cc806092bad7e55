import { EmptyScreen } from '../../components/EmptyScreen';

export function LibraryScreen() {
  return (
    <EmptyScreen icon="library" title="Your library">
      <p>Every recording you transcribe lands here, searchable with no network.</p>
      <ul className="empty__list">
        <li>Drop audio or video files, or whole folders, anywhere on this window.</li>
        <li>Pick files with “Add files”, or paste a link with “Add from URL”.</li>
        <li>Watch each upload and transcription in the queue, then read, search and export.</li>
      </ul>
    </EmptyScreen>
  );
}
