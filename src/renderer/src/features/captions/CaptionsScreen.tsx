import { EmptyScreen } from '../../components/EmptyScreen';

export function CaptionsScreen() {
  return (
    <EmptyScreen icon="captions" title="Live captions">
      <p>Captions from your microphone as you speak, here and in a floating window that stays on top of everything else.</p>
      <p className="muted">Each session is saved to your library when it ends.</p>
    </EmptyScreen>
  );
}
