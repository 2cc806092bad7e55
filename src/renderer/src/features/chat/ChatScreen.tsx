/** Chat over recordings: not built yet; the screen says so plainly and what it will do. */
import { Badge } from '../../components/Badge';
import { EmptyScreen } from '../../components/EmptyScreen';

export function ChatScreen() {
  return (
    <EmptyScreen icon="chat" title="Chat with your recordings">
      <p>
        <Badge tone="accent">Coming in a later version</Badge>
      </p>
      <p>You will be able to ask questions about one recording or many, with every answer citing the moments it comes from.</p>
      <p className="muted">It will work offline with a built-in answerer, or with a language model you connect. Until then, search the library to find what was said.</p>
    </EmptyScreen>
  );
}
