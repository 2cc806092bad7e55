import { EmptyScreen } from '../../components/EmptyScreen';

export function ChatScreen() {
  return (
    <EmptyScreen icon="chat" title="Chat with your recordings">
      <p>Ask questions about one recording or many. Every answer cites the moments it comes from, and a click plays them.</p>
      <p className="muted">Works offline with the built-in extractive answerer, or with a language model you connect.</p>
    </EmptyScreen>
  );
}
