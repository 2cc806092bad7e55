/** The model a chat asks (remembered with it), or the one a new chat will start with. */
import type { ChatDetail } from '../../../../shared/chat/schema';
import { useChat } from '../../stores/chat';

export function ModelPicker({ chat }: { chat: ChatDetail | null }) {
  const models = useChat((s) => s.models);
  const defaultModel = useChat((s) => s.defaultModel);
  const draftModel = useChat((s) => s.draftModel);
  const modelsError = useChat((s) => s.modelsError);
  const setModel = useChat((s) => s.setModel);
  const value = (chat ? chat.model : draftModel) ?? defaultModel ?? '';
  const known = models.some((m) => m.id === value);
  const current = models.find((m) => m.id === value);
  const choose = (model: string) => (chat ? void setModel(model) : useChat.setState({ draftModel: model }));
  return (
    <label className="chat__model">
      <span>Model</span>
      <select value={value} onChange={(e) => choose(e.target.value)} aria-describedby="chat-model-help" disabled={models.length === 0}>
        {!known && value && <option value={value}>{value} (not offered by this service)</option>}
        {models.length === 0 && !value && <option value="">{modelsError ? 'Models unavailable' : 'Loading…'}</option>}
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </select>
      <span id="chat-model-help" className="visually-hidden">
        {modelsError ?? current?.description ?? ''}
      </span>
    </label>
  );
}
