/**
 * What a question asks about, beside the message box: the whole library, these
 * recordings (a library selection or the chat's), or this recording (the one
 * open or the chat's). Choosing another starts a new chat about it.
 */
import type { ChatDetail } from '../../../../shared/chat/schema';
import { useChat, type ChatRecordingRef, type ChatTarget } from '../../stores/chat';
import { useLibrary } from '../../stores/library';
import { useTranscript } from '../../stores/transcript';

type Choice = 'library' | 'this' | 'these';

function choiceOf(t: ChatTarget): Choice {
  return t.scope === 'library' ? 'library' : t.recordings.length === 1 ? 'this' : 'these';
}

function short(title: string): string {
  return title.length > 40 ? `${title.slice(0, 39)}…` : title;
}

export function ScopePicker({ chat }: { chat: ChatDetail | null }) {
  const target = useChat((s) => s.target);
  const recent = useChat((s) => s.recent);
  const startNew = useChat((s) => s.startNew);
  const openItem = useTranscript((s) => (s.transcript?.item.status === 'completed' ? s.transcript.item : null));
  const selected = useLibrary((s) => s.selected);
  const items = useLibrary((s) => s.items);

  const now: ChatTarget = chat ? (chat.scope === 'library' ? { scope: 'library' } : { scope: 'recordings', recordings: chat.recordings }) : target;
  const nowRecs = now.scope === 'recordings' ? now.recordings : [];
  const selection: ChatRecordingRef[] = items.filter((it) => it !== undefined && selected[it.id]).map((it) => ({ id: it!.id, title: it!.title }));
  const one: ChatRecordingRef | null =
    nowRecs.length === 1 ? nowRecs[0]! : openItem ? { id: openItem.id, title: openItem.title } : recent.length === 1 ? recent[0]! : null;
  const many: ChatRecordingRef[] | null = nowRecs.length > 1 ? nowRecs : selection.length > 1 ? selection : recent.length > 1 ? recent : null;
  const value = choiceOf(now);

  const choose = (c: Choice) => {
    if (c === value) return;
    if (c === 'library') startNew({ scope: 'library' });
    else if (c === 'this' && one) startNew({ scope: 'recordings', recordings: [one] });
    else if (c === 'these' && many) startNew({ scope: 'recordings', recordings: many });
  };

  return (
    <label className="composer__scope">
      <span>Ask about</span>
      <select value={value} onChange={(e) => choose(e.target.value as Choice)} data-testid="chat-scope">
        <option value="library">the whole library</option>
        {one && <option value="this">this recording: {short(one.title)}</option>}
        {(many || (value === 'these' && nowRecs.length === 0)) && (
          <option value="these">{many ? `these ${many.length} recordings` : 'its recordings (deleted)'}</option>
        )}
      </select>
    </label>
  );
}
