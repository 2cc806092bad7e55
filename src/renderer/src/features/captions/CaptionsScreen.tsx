/** Live captions: not built yet; the screen says so plainly and what it will do. */
import { Badge } from '../../components/Badge';
import { EmptyScreen } from '../../components/EmptyScreen';

export function CaptionsScreen() {
  return (
    <EmptyScreen icon="captions" title="Live captions">
      <p>
        <Badge tone="accent">Coming in a later version</Badge>
      </p>
      <p>Live captions will turn your microphone into text as you speak, here and in a floating window that stays on top of other windows.</p>
      <p className="muted">Each session will be saved to your library when it ends. Until then, record with any app and drop the file into the library.</p>
    </EmptyScreen>
  );
}
