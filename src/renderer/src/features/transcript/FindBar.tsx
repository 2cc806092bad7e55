/** Find in transcript: words in sequence, match count, next/previous (Enter / Shift+Enter), Escape closes. */
import { useEffect, useRef } from 'react';
import { Button } from '../../components/Button';
import { useTranscript } from '../../stores/transcript';

export function FindBar({ onClose }: { onClose(): void }) {
  const find = useTranscript((s) => s.find);
  const setFind = useTranscript((s) => s.setFind);
  const step = useTranscript((s) => s.stepFind);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const count = find.matches.length;
  return (
    <div className="findbar" role="search" aria-label="Find in transcript">
      <input
        ref={input}
        type="search"
        placeholder="Find words (matches word beginnings)"
        aria-label="Find in transcript"
        value={find.query}
        onChange={(e) => setFind(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            step(e.shiftKey ? -1 : 1);
          }
          if (e.key === 'Escape') {
            setFind('');
            onClose();
          }
        }}
      />
      <span className="findbar__count" aria-live="polite" data-testid="find-count">
        {find.query.trim() ? (count ? `${find.cursor + 1} of ${count}` : 'No matches') : ''}
      </span>
      <Button size="sm" variant="ghost" icon="up" aria-label="Previous match" disabled={!count} onClick={() => step(-1)} />
      <Button size="sm" variant="ghost" icon="down" aria-label="Next match" disabled={!count} onClick={() => step(1)} />
      <Button
        size="sm"
        variant="ghost"
        icon="x"
        aria-label="Close find"
        onClick={() => {
          setFind('');
          onClose();
        }}
      />
    </div>
  );
}
